import Foundation
import HTTPTransport
import TMDB

/// Posters and backdrops downloaded once into `<data directory>/images/<size>/<file>`, the role an
/// image library plays in the app. Concurrent requests for one image share one download; a file already
/// on disk is served without the network.
public actor ImageCache {
    public struct Image: Sendable, Equatable {
        public var file: String
        public var url: String
        public var bytes: Int
        public var contentType: String
        public var source: CatalogSourceKind
    }

    public static let sizes = Set(TMDBClient.posterSizes + TMDBClient.backdropSizes)
    public static let defaultBaseURL = TMDBClient.imageBaseURL
    /// Images larger than this are refused (posters are well under 1 MiB; originals a few MiB).
    static let maxBytes = 20 * 1024 * 1024

    private let directory: String
    private let baseURL: String
    private let http: any HTTPClient
    private var downloads: [String: Task<Image, any Error>] = [:]

    public init(directory: DataDirectory, baseURL: String = ImageCache.defaultBaseURL, http: any HTTPClient) {
        self.directory = directory.file("images")
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.http = http
    }

    /// Checks a TMDB image path: one file name, letters, digits, `_` and `-`, with an image extension.
    /// Anything else (`..`, slashes inside, query strings) is refused before touching disk or network.
    public static func isValidPath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.utf8.count <= 200 else { return false }
        let name = path.dropFirst()
        guard let dot = name.lastIndex(of: ".") else { return false }
        let stem = name[..<dot]
        let ext = name[name.index(after: dot)...].lowercased()
        return !stem.isEmpty && ["jpg", "jpeg", "png", "svg", "webp"].contains(ext)
            && stem.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }

    public func fetch(path: String, size: String) async throws -> Image {
        guard let url = TMDBClient.imageURL(path: path, size: size, base: baseURL) else {
            throw MovieError.notFound("image \(size)\(path)")
        }
        let file = (directory as NSString).appendingPathComponent(size + path)
        if let attributes = try? FileManager.default.attributesOfItem(atPath: file),
            let bytes = attributes[.size] as? Int
        {
            return Image(file: file, url: url, bytes: bytes, contentType: Self.contentType(path), source: .cache)
        }
        if let running = downloads[url] { return try await running.value }
        let http = self.http
        let task = Task { try await Self.download(url: url, to: file, path: path, http: http) }
        downloads[url] = task
        defer { downloads[url] = nil }
        return try await task.value
    }

    private static func download(url: String, to file: String, path: String, http: any HTTPClient) async throws -> Image {
        guard let requestURL = URL(string: url) else { throw MovieError.notFound("image \(path)") }
        let response: HTTPResponse
        do {
            response = try await http.send(HTTPRequest(url: requestURL))
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HTTPTransportError {
            if case .cancelled = error { throw CancellationError() }
            throw MovieError.offlineNotCached("image \(path)")
        }
        switch response.statusCode {
        case 200..<300: break
        case 404: throw MovieError.notFound("image \(path)")
        default:
            throw MovieError.upstream(
                httpStatus: response.statusCode, retryable: response.statusCode >= 500,
                message: "The image server answered HTTP \(response.statusCode)")
        }
        guard response.body.count <= maxBytes else {
            throw MovieError.upstream(httpStatus: response.statusCode, retryable: false, message: "The image is too large")
        }
        do {
            let folder = (file as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // Written to a temporary name and renamed, so a reader never sees half an image.
            let temporary = file + ".part-\(UUID().uuidString)"
            guard FileManager.default.createFile(
                atPath: temporary, contents: response.body, attributes: [.posixPermissions: 0o600])
            else { throw MovieError.storage(writeProblem(near: file)) }
            if rename(temporary, file) != 0 {
                try? FileManager.default.removeItem(atPath: temporary)
                throw MovieError.storage(writeProblem(near: file))
            }
        } catch let error as MovieError {
            throw error
        } catch {
            throw MovieError.storage(writeProblem(near: file))
        }
        let type = response.value(forHeader: "Content-Type").flatMap { $0.isEmpty ? nil : $0 } ?? contentType(path)
        return Image(file: file, url: url, bytes: response.body.count, contentType: type, source: .network)
    }

    /// Why a file could not be written at `path`, judged from the nearest existing folder: a read-only
    /// file system or folder, a full one, or something else.
    static func writeProblem(near path: String) -> StorageProblem {
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty, folder != "/", !FileManager.default.fileExists(atPath: folder) {
            folder = (folder as NSString).deletingLastPathComponent
        }
        var info = statvfs()
        if statvfs(folder, &info) == 0 {
            if info.f_flag & UInt(ST_RDONLY) != 0 { return .readOnly }
            if info.f_bavail == 0 { return .diskFull }
        }
        return access(folder, W_OK) == 0 ? .other : .readOnly
    }

    static func contentType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        case "webp": return "image/webp"
        default: return "image/jpeg"
        }
    }
}
