import Foundation
import Testing

@testable import HTTPTransport

@Suite("Redirect rules and body limits, against loopback servers")
struct RedirectRuleTests {
    // Generous: nothing here waits for the deadline, and a loaded machine may delay any exchange.
    private let client = SocketHTTPClient(timeoutSeconds: 60, environment: [:])

    private func request(_ url: String, _ rule: RedirectRule, limit: Int? = nil) throws -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: url)), redirects: rule, maxResponseBytes: limit)
    }

    private static func redirect(to location: String) -> LoopbackServer.Action {
        .respond("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n")
    }

    private static let image = LoopbackServer.Action.respond(
        "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 3\r\n\r\nJPG")

    @Test("a redirect to another host is not followed: its 3xx is the answer, and that host sees nothing")
    func anotherHostIsRefused() async throws {
        let other = try LoopbackServer(host: "127.0.0.2") { _ in Self.image }
        defer { other.stop() }
        let origin = try LoopbackServer { request in
            request.requestLine.hasPrefix("GET /away") ? Self.redirect(to: "\(other.baseURL)/x.jpg")
                : Self.redirect(to: "/here")
        }
        defer { origin.stop() }
        let refused = try await client.send(request("\(origin.baseURL)/away", .sameHost(or: [])))
        #expect(refused.statusCode == 302)
        #expect(other.requests.isEmpty)

        // A host named without its port allows only the default port.
        let withoutPort = try await client.send(request("\(origin.baseURL)/away", .sameHost(or: ["127.0.0.2"])))
        #expect(withoutPort.statusCode == 302 && other.requests.isEmpty)
        let allowed = try await client.send(
            request("\(origin.baseURL)/away", .sameHost(or: ["127.0.0.2:\(other.port)"])))
        #expect(allowed.statusCode == 200 && allowed.body == Data("JPG".utf8))
        #expect(other.requests.count == 1)
        // Without a rule, as for TMDB's API, any host.
        #expect(try await client.send(request("\(origin.baseURL)/away", .unrestricted)).statusCode == 200)
    }

    @Test("the request's own host on another port is another service: refused")
    func anotherPortIsRefused() async throws {
        let service = try LoopbackServer { _ in Self.image }
        defer { service.stop() }
        let origin = try LoopbackServer { _ in Self.redirect(to: "\(service.baseURL)/x.jpg") }
        defer { origin.stop() }
        #expect(try await client.send(request("\(origin.baseURL)/a", .sameHost(or: []))).statusCode == 302)
        #expect(service.requests.isEmpty)
    }

    @Test("allowed hosts: names, ports, IPv6 literals; malformed entries ignored")
    func destinations() {
        #expect(RedirectRule.destination("CDN.Example.") == .init(host: "cdn.example", port: nil))
        #expect(RedirectRule.destination(" cdn.example:8443 ") == .init(host: "cdn.example", port: 8443))
        #expect(RedirectRule.destination("[::1]:8080") == .init(host: "::1", port: 8080))
        #expect(RedirectRule.destination("fe80::1") == .init(host: "fe80::1", port: nil))
        for bad in ["", "a:0", "a:99999", "a:x", "[::1", "user@host", "host/path", "[::1]x"] {
            #expect(RedirectRule.destination(bad) == nil, "\(bad)")
        }
    }

    @Test("a loop is tooManyRedirects as soon as a URL comes round again")
    func loop() async throws {
        let server = try LoopbackServer { request in
            request.requestLine.hasPrefix("GET /a ") ? Self.redirect(to: "/b") : Self.redirect(to: "/a")
        }
        defer { server.stop() }
        await #expect(throws: HTTPTransportError.tooManyRedirects) {
            try await client.send(request("\(server.baseURL)/a", .sameHost(or: [])))
        }
        #expect(server.requests.count == 2)
    }

    @Test("after a public start, IP literals of the local network are refused before any connection")
    func nonPublicLiteralsAfterAPublicStart() throws {
        let start = try #require(URL(string: "https://image.tmdb.org/t/p/w92/a.jpg"))
        let rule = RedirectRule(
            allowedHosts: ["169.254.169.254", "10.0.0.7", "::ffff:127.0.0.1", "localhost", "cdn.example"],
            allowsNonPublicAddresses: false)
        for target in [
            "http://169.254.169.254/latest/meta-data/", "http://10.0.0.7/a.jpg", "http://[::ffff:127.0.0.1]/a.jpg",
            "http://localhost:8080/a.jpg", "https://elsewhere.example/a.jpg",
        ] {
            #expect(!RedirectPolicy.allows(try #require(URL(string: target)), by: rule, from: start,
                                           startedAt: .publicInternet), "\(target)")
        }
        #expect(RedirectPolicy.allows(try #require(URL(string: "https://CDN.example./a.jpg")), by: rule, from: start,
                                      startedAt: .publicInternet))
        #expect(RedirectPolicy.allows(try #require(URL(string: "https://image.tmdb.org/other.jpg")), by: rule,
                                      from: start, startedAt: .publicInternet))
        // A base in the local network may redirect within it (to allowed hosts only).
        #expect(RedirectPolicy.allows(try #require(URL(string: "http://10.0.0.7/a.jpg")), by: rule, from: start,
                                      startedAt: .privateNetwork))
    }

    @Test("the body limit stops a response while it streams in, whatever its framing")
    func bodyLimit() async throws {
        let big = String(repeating: "x", count: 64 << 10)
        let server = try LoopbackServer { request in
            switch request.requestLine {
            case "GET /declared HTTP/1.1":
                .respond("HTTP/1.1 200 OK\r\nContent-Length: 99999999\r\n\r\n")
            case "GET /chunked HTTP/1.1":
                .respond("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + String(repeating: "10000\r\n\(big)\r\n", count: 4) + "0\r\n\r\n")
            case "GET /until-close HTTP/1.1":
                .respondAndClose("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + big + big)
            default:
                .respond("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc")
            }
        }
        defer { server.stop() }
        for path in ["/declared", "/chunked", "/until-close"] {
            await #expect(throws: HTTPTransportError.responseTooLarge, "\(path)") {
                try await client.send(request("\(server.baseURL)\(path)", .unrestricted, limit: 100 << 10))
            }
        }
        #expect(try await client.send(request("\(server.baseURL)/small", .unrestricted, limit: 3)).body.count == 3)
        await #expect(throws: HTTPTransportError.responseTooLarge) {
            try await client.send(request("\(server.baseURL)/small", .unrestricted, limit: 2))
        }
    }
}
