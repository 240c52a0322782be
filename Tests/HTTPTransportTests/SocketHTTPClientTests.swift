import Foundation
import Testing

@testable import HTTPTransport

private func ok(_ body: String, extraHeaders: String = "") -> String {
    "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\(extraHeaders)\r\n\(body)"
}

private func get(_ client: SocketHTTPClient, _ url: String) async throws -> HTTPResponse {
    try await client.send(HTTPRequest(url: try #require(URL(string: url))))
}

// The time limit turns a request that never ends into a failure; it is the only upper bound on time here.
@Suite("SocketHTTPClient against a loopback server", .timeLimit(.minutes(10)))
struct SocketHTTPClientTests {
    /// No proxy from the outer environment may come between the tests and the loopback server.
    // A generous timeout: on a loaded machine a loopback exchange can take seconds; only the tests of
    // timeouts set a short one.
    private func makeClient(timeout: Double = 30, environment: [String: String] = [:]) -> SocketHTTPClient {
        SocketHTTPClient(timeoutSeconds: timeout, environment: environment)
    }

    @Test("a Content-Length response; the request carries target, Host and User-Agent")
    func contentLength() async throws {
        let server = try LoopbackServer { _ in .respond(ok("hello", extraHeaders: "X-Reply: yes\r\n")) }
        defer { server.stop() }
        let response = try await get(makeClient(), "\(server.baseURL)/3/movie/popular?api_key=k&page=2")
        #expect(response.statusCode == 200 && response.body == Data("hello".utf8))
        #expect(response.value(forHeader: "x-reply") == "yes")
        let request = try #require(server.requests.first)
        #expect(request.requestLine == "GET /3/movie/popular?api_key=k&page=2 HTTP/1.1")
        #expect(request.head.contains("\r\nHost: 127.0.0.1:\(server.port)\r\n"))
        #expect(request.head.contains("\r\nUser-Agent: movie-rpc\r\n"))
    }

    @Test("a chunked response, and a POST body sent whole")
    func chunkedAndPost() async throws {
        let server = try LoopbackServer { _ in
            .respond("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
        }
        defer { server.stop() }
        let request = HTTPRequest(
            url: try #require(URL(string: "\(server.baseURL)/v1/accounts:signUp?key=k")), method: .post,
            headers: ["Content-Type": "application/json"], body: Data(#"{"email":"a@b.c"}"#.utf8))
        let response = try await makeClient().send(request)
        #expect(response.statusCode == 201 && response.body == Data("abcde".utf8))
        #expect(server.requests.first?.body == Array(#"{"email":"a@b.c"}"#.utf8))
        #expect(server.requests.first?.head.contains("\r\nContent-Length: 17\r\n") == true)
    }

    @Test("a response delimited by the server closing the connection")
    func closeDelimited() async throws {
        let server = try LoopbackServer { _ in .respondAndClose("HTTP/1.1 200 OK\r\n\r\nuntil the end") }
        defer { server.stop() }
        let client = makeClient()
        #expect(try await get(client, "\(server.baseURL)/a").body == Data("until the end".utf8))
        #expect(try await get(client, "\(server.baseURL)/b").body == Data("until the end".utf8))
        #expect(server.connectionsAccepted == 2)
    }

    @Test("HTTP error statuses are responses, not errors")
    func errorStatus() async throws {
        let server = try LoopbackServer { _ in
            .respond("HTTP/1.1 429 Too Many\r\nRetry-After: 3\r\nContent-Length: 0\r\n\r\n")
        }
        defer { server.stop() }
        let response = try await get(makeClient(), "\(server.baseURL)/")
        #expect(response.statusCode == 429 && response.value(forHeader: "Retry-After") == "3")
    }

    @Test("keep-alive: two requests, one connection")
    func keepAliveReuse() async throws {
        let server = try LoopbackServer { request in .respond(ok("reply \(request.indexOnConnection)")) }
        defer { server.stop() }
        let client = makeClient()
        #expect(try await get(client, "\(server.baseURL)/one").body == Data("reply 0".utf8))
        #expect(try await get(client, "\(server.baseURL)/two").body == Data("reply 1".utf8))
        #expect(server.connectionsAccepted == 1)
    }

    @Test("Connection: close is honoured: the next request opens a new connection")
    func connectionClose() async throws {
        let server = try LoopbackServer { _ in .respond(ok("x", extraHeaders: "Connection: close\r\n")) }
        defer { server.stop() }
        let client = makeClient()
        _ = try await get(client, "\(server.baseURL)/one")
        _ = try await get(client, "\(server.baseURL)/two")
        #expect(server.connectionsAccepted == 2)
    }

    @Test("a pooled connection the server drops on reuse is retried once on a fresh connection")
    func stalePooledConnectionRetried() async throws {
        let server = try LoopbackServer { request in
            request.connection == 0 && request.indexOnConnection == 1 ? .close : .respond(ok("fine"))
        }
        defer { server.stop() }
        let client = makeClient()
        _ = try await get(client, "\(server.baseURL)/first")
        #expect(try await get(client, "\(server.baseURL)/second").body == Data("fine".utf8))
        #expect(server.connectionsAccepted == 2)
        #expect(server.requests.map(\.requestLine) == [
            "GET /first HTTP/1.1", "GET /second HTTP/1.1", "GET /second HTTP/1.1",
        ])
    }

    @Test("a POST on a pooled connection the server drops is not sent again: networkConnectionLost")
    func stalePooledConnectionNotRetriedForPost() async throws {
        let server = try LoopbackServer { request in
            request.connection == 0 && request.indexOnConnection == 1 ? .close : .respond(ok("fine"))
        }
        defer { server.stop() }
        let client = makeClient()
        _ = try await get(client, "\(server.baseURL)/first")
        var post = HTTPRequest(url: try #require(URL(string: "\(server.baseURL)/signUp")), method: .post)
        post.body = Data("{}".utf8)
        await #expect(throws: HTTPTransportError.offline(code: -1005)) { try await client.send(post) }
        #expect(server.requests.map(\.requestLine) == ["GET /first HTTP/1.1", "POST /signUp HTTP/1.1"])
    }

    @Test("a fresh connection closed before any reply is not retried: networkConnectionLost")
    func freshConnectionLost() async throws {
        let server = try LoopbackServer { _ in .close }
        defer { server.stop() }
        await #expect(throws: HTTPTransportError.offline(code: -1005)) {
            try await get(makeClient(), "\(server.baseURL)/")
        }
        #expect(server.connectionsAccepted == 1)
    }

    @Test("a response cut short is networkConnectionLost, garbage is badServerResponse")
    func brokenResponses() async throws {
        let cut = try LoopbackServer { _ in .respondAndClose("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc") }
        defer { cut.stop() }
        await #expect(throws: HTTPTransportError.offline(code: -1005)) { try await get(makeClient(), cut.baseURL) }
        let garbage = try LoopbackServer { _ in .respondAndClose("<html>not http</html>\r\n\r\n") }
        defer { garbage.stop() }
        await #expect(throws: HTTPTransportError.other(code: -1011)) { try await get(makeClient(), garbage.baseURL) }
    }

    @Test("connection refused is offline (cannotConnectToHost)")
    func refused() async throws {
        // Port 1 on loopback refuses at once; no network needed.
        await #expect(throws: HTTPTransportError.offline(code: -1004)) {
            try await get(makeClient(), "http://127.0.0.1:1/")
        }
    }

    @Test("an unknown host is offline (cannotFindHost)")
    func unknownHost() async throws {
        await #expect(throws: HTTPTransportError.offline(code: -1003)) {
            try await get(makeClient(), "http://no-such-host.invalid/")
        }
    }

    @Test("an unsupported scheme fails before any I/O")
    func unsupportedScheme() async throws {
        await #expect(throws: HTTPTransportError.other(code: -1002)) { try await get(makeClient(), "ftp://127.0.0.1/") }
    }

    @Test("a server that never answers times out at the deadline, fractions included")
    func timeout() async throws {
        let server = try LoopbackServer { _ in .hang }
        defer { server.stop() }
        let started = ContinuousClock.now
        await #expect(throws: HTTPTransportError.offline(code: -1001)) {
            try await get(makeClient(timeout: 0.3), "\(server.baseURL)/")
        }
        let elapsed = ContinuousClock.now - started
        // Not before the 0.3 s deadline (URLSession failed fractions at once); the server never answers, so
        // the error is the deadline's. No upper bound: the AddressSanitizer suite on a loaded machine resumed
        // this test over 20 s after the deadline had ended the request. (`DeadlineTests` checks the
        // deadline's arithmetic without a clock.)
        #expect(elapsed >= .milliseconds(290), "\(elapsed)")
    }

    @Test("cancelling an in-flight request ends it promptly with CancellationError")
    func cancellation() async throws {
        let (received, receivedContinuation) = AsyncStream<Void>.makeStream()
        let server = try LoopbackServer { _ in
            receivedContinuation.yield()
            return .hang
        }
        defer { server.stop() }
        // Nothing but the cancellation can end the request before an hour.
        let client = makeClient(timeout: 3600)
        let url = try #require(URL(string: "\(server.baseURL)/slow"))
        let task = Task { try await client.send(HTTPRequest(url: url)) }
        var iterator = received.makeAsyncIterator()
        _ = await iterator.next()  // the server has the request: the client is waiting for the answer
        task.cancel()
        // CancellationError shows that the cancellation ended it, not the server or the timeout.
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("a request cancelled before it starts never reaches the server")
    func cancelledBeforeStart() async throws {
        let server = try LoopbackServer { _ in .respond(ok("x")) }
        defer { server.stop() }
        let client = makeClient()
        let url = try #require(URL(string: server.baseURL))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(HTTPRequest(url: url))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(server.requests.isEmpty)
    }

    @Test("redirects are followed, relative Locations resolved, up to a limit")
    func redirects() async throws {
        let server = try LoopbackServer { request in
            switch request.requestLine {
            case "GET /old HTTP/1.1", "POST /old HTTP/1.1":
                .respond("HTTP/1.1 301 Moved\r\nLocation: /new?x=1\r\nContent-Length: 0\r\n\r\n")
            case "GET /new?x=1 HTTP/1.1": .respond(ok("arrived"))
            default: .respond("HTTP/1.1 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\n\r\n")
            }
        }
        defer { server.stop() }
        let client = makeClient()
        #expect(try await get(client, "\(server.baseURL)/old").body == Data("arrived".utf8))
        await #expect(throws: HTTPTransportError.other(code: -1007)) { try await get(client, "\(server.baseURL)/loop") }
        let post = HTTPRequest(url: try #require(URL(string: "\(server.baseURL)/old")), method: .post)
        #expect(try await client.send(post).statusCode == 301)
    }

    @Test("an https page redirecting to plain http is not followed")
    func noDowngrade() async throws {
        // The policy decides before any connection: the loopback server only speaks plain HTTP.
        let response = HTTPResponse(statusCode: 302, headers: ["Location": "http://127.0.0.1:1/"])
        let request = HTTPRequest(url: try #require(URL(string: "https://127.0.0.1:2/secure")))
        #expect(RedirectPolicy.nextRequest(after: response, to: request) == nil)
    }

    @Test("http_proxy: the request goes to the proxy in absolute form, with its credentials")
    func httpProxy() async throws {
        let proxy = try LoopbackServer { _ in .respond(ok("via proxy")) }
        defer { proxy.stop() }
        let client = makeClient(environment: ["http_proxy": "http://user:secret@127.0.0.1:\(proxy.port)"])
        #expect(try await get(client, "http://movies.invalid/3/genre").body == Data("via proxy".utf8))
        let request = try #require(proxy.requests.first)
        #expect(request.requestLine == "GET http://movies.invalid/3/genre HTTP/1.1")
        #expect(request.head.contains("\r\nHost: movies.invalid\r\n"))
        let credentials = Data("user:secret".utf8).base64EncodedString()
        #expect(request.head.contains("\r\nProxy-Authorization: Basic \(credentials)\r\n"))

        let bypassing = makeClient(environment: ["http_proxy": "http://127.0.0.1:1", "no_proxy": "127.0.0.1"])
        let direct = try LoopbackServer { _ in .respond(ok("direct")) }
        defer { direct.stop() }
        #expect(try await get(bypassing, direct.baseURL).body == Data("direct".utf8))
    }

    @Test("https_proxy: a CONNECT tunnel is asked for, and a refusal is offline")
    func httpsProxyRefused() async throws {
        let proxy = try LoopbackServer { _ in .respond("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n") }
        defer { proxy.stop() }
        let client = makeClient(environment: ["https_proxy": "127.0.0.1:\(proxy.port)"])
        await #expect(throws: HTTPTransportError.offline(code: -1004)) {
            try await get(client, "https://movies.invalid/3/genre")
        }
        #expect(proxy.requests.first?.requestLine == "CONNECT movies.invalid:443 HTTP/1.1")
    }
}
