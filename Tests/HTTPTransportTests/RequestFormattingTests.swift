import Foundation
import Testing

@testable import HTTPTransport

private func url(_ text: String) throws -> URL {
    try #require(URL(string: text))
}

/// The request as the client would write it to a direct connection.
private func formatted(_ request: HTTPRequest) throws -> String {
    String(decoding: RequestHead.bytes(for: request, origin: try HTTPOrigin(url: request.url)), as: UTF8.self)
}

@Suite("Request formatting")
struct RequestFormattingTests {
    @Test("origin, Host header and request target of a URL")
    func origins() throws {
        let plain = try HTTPOrigin(url: url("http://Example.com/3/movie?api_key=k&q=a%20b"))
        #expect(plain == HTTPOrigin(scheme: .http, host: "example.com", port: 80))
        #expect(plain.hostHeader == "example.com" && !plain.isIPLiteral)
        #expect(HTTPOrigin.originFormTarget(of: try url("http://example.com/3/movie?api_key=k&q=a%20b"))
            == "/3/movie?api_key=k&q=a%20b")
        #expect(HTTPOrigin.originFormTarget(of: try url("https://example.com")) == "/")
        #expect(HTTPOrigin.originFormTarget(of: try url("https://example.com?x=1")) == "/?x=1")

        let secure = try HTTPOrigin(url: url("https://api.themoviedb.org:8443/3"))
        #expect(secure.port == 8443 && secure.hostHeader == "api.themoviedb.org:8443")
        #expect(try HTTPOrigin(url: url("https://a.example:443/")).hostHeader == "a.example")

        let ipv6 = try HTTPOrigin(url: url("http://[::1]:8080/x"))
        #expect(ipv6.host == "::1" && ipv6.isIPLiteral)
        #expect(ipv6.hostHeader == "[::1]:8080" && ipv6.authority == "[::1]:8080")
        #expect(try HTTPOrigin(url: url("http://127.0.0.1:9/")).isIPLiteral)
    }

    @Test("schemes other than http and https are URLError.unsupportedURL", arguments: [
        "ftp://example.com/file", "file:///etc/passwd", "mailto:someone@example.com", "http:///no-host",
    ])
    func unsupportedSchemes(text: String) throws {
        let unsupported = HTTPTransportError.other(code: -1002)
        #expect(throws: unsupported) { try HTTPOrigin(url: url(text)) }
    }

    @Test("request line and headers, with a default User-Agent and no Accept-Encoding")
    func getRequest() throws {
        let request = HTTPRequest(url: try url("http://127.0.0.1:8080/3/genre?api_key=k"), headers: ["Accept": "*/*"])
        let text = try formatted(request)
        #expect(text == "GET /3/genre?api_key=k HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\n"
            + "User-Agent: movie-rpc\r\nConnection: keep-alive\r\n\r\n")
    }

    @Test("a body gets its Content-Length; POST without a body says 0; a given User-Agent is kept")
    func bodies() throws {
        let post = HTTPRequest(
            url: try url("https://example.com/v1"), method: .post,
            headers: ["Content-Type": "application/json", "user-agent": "tester"], body: Data("{}".utf8))
        let text = try formatted(post)
        #expect(text == "POST /v1 HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\n"
            + "user-agent: tester\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}")
        let empty = HTTPRequest(url: try url("http://example.com/"), method: .put)
        #expect(try formatted(empty).contains("Content-Length: 0\r\n"))
    }

    @Test("headers that could inject a line, and headers the client manages, are not sent")
    func unsafeHeaders() throws {
        let request = HTTPRequest(
            url: try url("http://example.com/"),
            headers: ["X-Evil": "a\r\nInjected: 1", "Host": "other.example", "Connection": "close"])
        let text = try formatted(request)
        #expect(!text.contains("Injected") && !text.contains("other.example") && !text.contains("close"))
    }

    @Test("through a plain-HTTP proxy: absolute-form target and Proxy-Authorization; CONNECT for https")
    func proxyForms() throws {
        let request = HTTPRequest(url: try url("http://example.com:8080/a?b=c"))
        let text = String(decoding: RequestHead.bytes(
            for: request, origin: try HTTPOrigin(url: request.url), absoluteForm: true,
            proxyAuthorization: "Basic dTpw"), as: UTF8.self)
        #expect(text.hasPrefix("GET http://example.com:8080/a?b=c HTTP/1.1\r\nHost: example.com:8080\r\n"))
        #expect(text.contains("Proxy-Authorization: Basic dTpw\r\n"))
        let connect = String(decoding: RequestHead.connectBytes(
            to: HTTPOrigin(scheme: .https, host: "api.example", port: 443), proxyAuthorization: nil), as: UTF8.self)
        #expect(connect == "CONNECT api.example:443 HTTP/1.1\r\nHost: api.example:443\r\nUser-Agent: movie-rpc\r\n\r\n")
    }

    @Test("redirects: followed for GET, resolved, never to plain http from https, Authorization kept on its host")
    func redirects() throws {
        let request = HTTPRequest(url: try url("https://a.example/x/y?k=1"), headers: ["Authorization": "Bearer t"])
        func redirect(_ status: Int, to location: String, from request: HTTPRequest = request) -> HTTPRequest? {
            RedirectPolicy.nextRequest(
                after: HTTPResponse(statusCode: status, headers: ["location": location]), to: request)
        }
        let relative = try #require(redirect(302, to: "../z"))
        #expect(relative.url.absoluteString == "https://a.example/z")
        #expect(relative.value(forHeader: "Authorization") == "Bearer t")
        let otherHost = try #require(redirect(301, to: "https://b.example/"))
        #expect(otherHost.value(forHeader: "Authorization") == nil)
        #expect(redirect(307, to: "http://a.example/x") == nil)
        #expect(redirect(200, to: "/elsewhere") == nil)
        #expect(redirect(304, to: "/elsewhere") == nil)
        var post = request
        post.method = .post
        #expect(redirect(303, to: "/elsewhere", from: post) == nil)
        #expect(redirect(308, to: "ftp://a.example/") == nil)
    }
}

@Suite("Proxy environment")
struct ProxyConfigurationTests {
    @Test("no_proxy: *, names with and without a leading dot cover subdomains, IPs match exactly")
    func noProxyMatching() {
        let list = NoProxyList(" example.com, .corp.example ,10.0.0.1,[::1]")
        #expect(list.matches(host: "example.com"))
        #expect(list.matches(host: "api.example.com"))
        #expect(list.matches(host: "example.com."))
        #expect(!list.matches(host: "badexample.com"))
        #expect(list.matches(host: "corp.example"))
        #expect(list.matches(host: "x.corp.example"))
        #expect(list.matches(host: "10.0.0.1"))
        #expect(!list.matches(host: "10.0.0.10"))
        #expect(!list.matches(host: "110.0.0.1"))
        #expect(list.matches(host: "::1"))
        #expect(NoProxyList("*").matches(host: "anything.example"))
        #expect(!NoProxyList("").matches(host: "example.com"))
    }

    @Test("the variables curl reads, and only those")
    func environment() throws {
        let proxies = ProxyConfiguration(environment: [
            "https_proxy": "http://user:p%40ss@proxy.example:3128", "HTTP_PROXY": "http://ignored.example:1",
            "NO_PROXY": "localhost,127.0.0.1",
        ])
        let secure = try #require(proxies.proxy(for: HTTPOrigin(scheme: .https, host: "api.themoviedb.org", port: 443)))
        #expect(secure.origin == HTTPOrigin(scheme: .http, host: "proxy.example", port: 3128))
        // Userinfo is percent-decoded before it is encoded for the header, as curl does.
        #expect(secure.authorization == "Basic " + Data("user:p@ss".utf8).base64EncodedString())
        #expect(proxies.proxy(for: HTTPOrigin(scheme: .http, host: "api.themoviedb.org", port: 80)) == nil)
        #expect(proxies.proxy(for: HTTPOrigin(scheme: .https, host: "127.0.0.1", port: 443)) == nil)

        let plain = ProxyConfiguration(environment: ["http_proxy": "proxy.example", "HTTPS_PROXY": "http://p2:8080"])
        #expect(plain.proxy(for: HTTPOrigin(scheme: .http, host: "x.example", port: 80))?.origin.port == 1080)
        #expect(plain.proxy(for: HTTPOrigin(scheme: .https, host: "x.example", port: 443))?.origin.host == "p2")
        #expect(ProxyConfiguration(environment: ["https_proxy": "socks5://p:1"]).httpsProxy == nil)
        #expect(ProxyConfiguration(environment: [:]) == .none)
    }
}

@Suite("Transport error classification")
struct ErrorClassificationTests {
    @Test("the codes this client throws classify as URLSession's did")
    func classification() {
        // Each code beside Foundation's URLError code of the same name: the numbers are the same, so a log line
        // reads as a URLSession client's, and a URLSession-based client's URLError classifies the same way.
        let offline: [(HTTPTransportError.Code, URLError.Code)] = [
            (.timedOut, .timedOut), (.cannotFindHost, .cannotFindHost), (.cannotConnectToHost, .cannotConnectToHost),
            (.networkConnectionLost, .networkConnectionLost), (.notConnectedToInternet, .notConnectedToInternet),
            (.secureConnectionFailed, .secureConnectionFailed), (.dnsLookupFailed, .dnsLookupFailed),
        ]
        let other: [(HTTPTransportError.Code, URLError.Code)] = [
            (.badServerResponse, .badServerResponse), (.dataLengthExceedsMaximum, .dataLengthExceedsMaximum),
            (.unsupportedURL, .unsupportedURL), (.httpTooManyRedirects, .httpTooManyRedirects), (.unknown, .unknown),
        ]
        for (code, foundation) in offline {
            #expect(code.rawValue == foundation.rawValue)
            #expect(HTTPTransportError(code) == .offline(code: code.rawValue))
            #expect(HTTPTransportError(URLError(foundation)) == .offline(code: code.rawValue))
        }
        for (code, foundation) in other {
            #expect(code.rawValue == foundation.rawValue)
            #expect(HTTPTransportError(code) == .other(code: code.rawValue))
            #expect(HTTPTransportError(URLError(foundation)) == .other(code: code.rawValue))
        }
        #expect(offline.count + other.count + 1 == HTTPTransportError.Code.allCases.count)
        #expect(HTTPTransportError.Code.cancelled.rawValue == URLError.Code.cancelled.rawValue)
        #expect(HTTPTransportError(HTTPTransportError.Code.cancelled) == .cancelled)
        #expect(HTTPTransportError(URLError(.cancelled)) == .cancelled)
        #expect(HTTPTransportError(CancellationError()) == .cancelled)
    }
}
