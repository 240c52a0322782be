import Foundation
import HTTPTransport
import Synchronization
import Testing

@testable import MovieCore

/// An image server that answers every request with one canned response and keeps the requests.
private final class CannedImageServer: HTTPClient {
    private let answer: Mutex<Result<HTTPResponse, HTTPTransportError>>
    private let sent = Mutex<[HTTPRequest]>([])

    init(_ answer: Result<HTTPResponse, HTTPTransportError>) {
        self.answer = Mutex(answer)
    }

    var requests: [HTTPRequest] { sent.withLock { $0 } }

    func answer(_ next: Result<HTTPResponse, HTTPTransportError>) {
        answer.withLock { $0 = next }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        sent.withLock { $0.append(request) }
        return try answer.withLock { $0 }.get()
    }
}

@Suite struct ImageCacheTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID().uuidString)").path
    static let jpeg = Data([0xff, 0xd8, 0xff, 0xd9])

    private func image(_ type: String?, _ body: Data = jpeg, status: Int = 200)
        -> Result<HTTPResponse, HTTPTransportError>
    {
        .success(HTTPResponse(statusCode: status, headers: type.map { ["Content-Type": $0] } ?? [:], body: body))
    }

    private func cache(_ server: CannedImageServer, hosts: [String] = []) throws -> ImageCache {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return ImageCache(
            directory: DataDirectory(path: home), baseURL: "https://image.tmdb.org/t/p/", redirectHosts: hosts,
            http: server)
    }

    private func rejection(_ cache: ImageCache, _ path: String = "/a.jpg") async -> ImageProblem? {
        do {
            _ = try await cache.fetch(path: path, size: "w92")
            return nil
        } catch MovieError.imageRejected(let problem) {
            return problem
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    /// Every file (not folder) under `images/`.
    private var cachedFiles: [String] {
        (FileManager.default.subpaths(atPath: home + "/images") ?? []).filter { path in
            (try? FileManager.default.attributesOfItem(atPath: home + "/images/" + path)[.type] as? FileAttributeType)
                != .typeDirectory
        }
    }

    @Test func theRequestIsCappedAndRestrictedToTheImageHost() async throws {
        let server = CannedImageServer(image("image/jpeg"))
        let image = try await cache(server, hosts: ["CDN.example"]).fetch(path: "/a.jpg", size: "w92")
        #expect(image.bytes == 4 && image.contentType == "image/jpeg")
        let request = try #require(server.requests.first)
        #expect(request.maxResponseBytes == ImageCache.maxBytes)
        #expect(request.redirects == .sameHost(or: ["cdn.example"]))
        #expect(!request.redirects.allowsNonPublicAddresses)
    }

    @Test(arguments: [
        ("text/html", ImageProblem.notAnImage), ("", .notAnImage), ("image/", .notAnImage),
        ("application/json; x=image/png", .notAnImage), ("image/\u{1b}[31mred", .notAnImage),
    ])
    func whatIsNotAnImageIsRefusedAndNotCached(type: String, problem: ImageProblem) async throws {
        let cache = try cache(CannedImageServer(image(type)))
        #expect(await rejection(cache) == problem)
        #expect(cachedFiles.isEmpty, "\(cachedFiles)")
    }

    @Test func aMissingContentTypeIsNotAnImage() async throws {
        #expect(await rejection(try cache(CannedImageServer(image(nil)))) == .notAnImage)
    }

    @Test(arguments: [
        ("image/PNG", "image/png"), (" image/jpg ; q=1", "image/jpeg"),
        ("image/webp;\u{1b}]0;title\u{07}", "image/webp"), ("image/x-icon", "image/jpeg"),
        ("image/svg+xml", "image/svg+xml"),
    ])
    func theTypeReportedIsAKnownOne(header: String, reported: String) async throws {
        let image = try await cache(CannedImageServer(image(header))).fetch(path: "/a.jpg", size: "w92")
        #expect(image.contentType == reported)
    }

    @Test func emptyAnswersAreRefusedAndNeverCached() async throws {
        let server = CannedImageServer(image(nil, Data(), status: 204))
        let cache = try cache(server)
        #expect(await rejection(cache) == .empty)
        server.answer(image("image/jpeg", Data()))
        #expect(await rejection(cache) == .empty)
        #expect(cachedFiles.isEmpty)
        server.answer(image("image/jpeg"))
        #expect(try await cache.fetch(path: "/a.jpg", size: "w92").source == .network)
    }

    @Test func transportLimitsHaveTheirOwnProblems() async throws {
        let server = CannedImageServer(.failure(.responseTooLarge))
        let cache = try cache(server)
        #expect(await rejection(cache) == .tooLarge)
        server.answer(.failure(.tooManyRedirects))
        #expect(await rejection(cache) == .tooManyRedirects)
        server.answer(image(nil, Data(), status: 302))
        #expect(await rejection(cache) == .redirectRefused)
        server.answer(.failure(.offline(code: -1004)))
        await #expect(throws: MovieError.offlineNotCached("image /a.jpg")) {
            try await cache.fetch(path: "/a.jpg", size: "w92")
        }
    }

    @Test func linksInTheCacheAreRemovedNotFollowed() async throws {
        let server = CannedImageServer(image("image/jpeg"))
        let cache = try cache(server)
        let outside = home + "-outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("private".utf8).write(to: URL(fileURLWithPath: outside + "/secret"))
        try FileManager.default.createDirectory(atPath: home + "/images/w92", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: home + "/images/w92/a.jpg", withDestinationPath: outside + "/secret")
        try FileManager.default.createSymbolicLink(atPath: home + "/images/w154", withDestinationPath: outside)

        let linked = try await cache.fetch(path: "/a.jpg", size: "w92")
        #expect(linked.source == .network && linked.bytes == 4)
        let type = try FileManager.default.attributesOfItem(atPath: linked.file)[.type] as? FileAttributeType
        #expect(type == .typeRegular)
        #expect(try Data(contentsOf: URL(fileURLWithPath: outside + "/secret")) == Data("private".utf8))

        let throughFolder = try await cache.fetch(path: "/b.jpg", size: "w154")
        #expect(throughFolder.source == .network)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["secret"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: throughFolder.file)) == Self.jpeg)
        // Served from disk the next time, as a regular file.
        #expect(try await cache.fetch(path: "/b.jpg", size: "w154").source == .cache)
        #expect(server.requests.count == 2)
    }
}
