#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The proxies of the environment, read the way curl reads them (users behind a proxy relied on libcurl).
///
/// `https_proxy`/`HTTPS_PROXY` serve `https` URLs (through a `CONNECT` tunnel), `http_proxy` (lowercase only:
/// `HTTP_PROXY` can be set by a CGI request's `Proxy:` header) serves `http` URLs, and `no_proxy`/`NO_PROXY`
/// lists hosts that go direct.
struct ProxyConfiguration: Sendable, Equatable {
    /// A proxy's address and, from its URL's userinfo, the `Proxy-Authorization` value.
    struct Proxy: Sendable, Equatable {
        var origin: HTTPOrigin
        var authorization: String?
    }

    var httpProxy: Proxy?
    var httpsProxy: Proxy?
    var noProxy: NoProxyList

    static let none = ProxyConfiguration(httpProxy: nil, httpsProxy: nil, noProxy: NoProxyList(""))

    init(httpProxy: Proxy?, httpsProxy: Proxy?, noProxy: NoProxyList) {
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
    }

    /// The variables read here, as the process has them. Only these: a client is made at every start, and
    /// `ProcessInfo`'s whole environment would be built again for five names.
    static func processEnvironment() -> [String: String] {
        var found: [String: String] = [:]
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"] {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }

    init(environment: [String: String]) {
        func nonEmpty(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        httpProxy = nonEmpty("http_proxy").flatMap(Self.proxy(from:))
        httpsProxy = (nonEmpty("https_proxy") ?? nonEmpty("HTTPS_PROXY")).flatMap(Self.proxy(from:))
        noProxy = NoProxyList(nonEmpty("no_proxy") ?? nonEmpty("NO_PROXY") ?? "")
    }

    /// The proxy to reach `origin` through, or nil to connect directly.
    func proxy(for origin: HTTPOrigin) -> Proxy? {
        let proxy = origin.scheme == .https ? httpsProxy : httpProxy
        guard let proxy, !noProxy.matches(host: origin.host) else { return nil }
        return proxy
    }

    /// `http://[user:password@]host[:port]`; a missing scheme means `http`, a missing port 1080 (as in curl).
    /// Only plain-HTTP proxies are supported; any other scheme is ignored.
    static func proxy(from value: String) -> Proxy? {
        let text = value.contains("://") ? value : "http://" + value
        guard let url = URL(string: text),
              let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              components.scheme?.lowercased() == "http",
              var host = components.percentEncodedHost, !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        let origin = HTTPOrigin(scheme: .http, host: host.lowercased(), port: components.port ?? 1080)
        var authorization: String?
        if let user = components.user {
            let credentials = "\(user):\(components.password ?? "")"
            authorization = "Basic " + Data(credentials.utf8).base64EncodedString()
        }
        return Proxy(origin: origin, authorization: authorization)
    }
}

/// A `no_proxy` list: comma-separated hosts, `*` for all. A name matches itself and its subdomains, with or
/// without a leading dot (`example.com` and `.example.com` both cover `api.example.com`); an IP matches exactly.
struct NoProxyList: Sendable, Equatable {
    private let matchesEverything: Bool
    private let suffixes: [String]

    init(_ value: String) {
        let entries = value.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
            .filter { !$0.isEmpty }
        matchesEverything = entries.contains("*")
        suffixes = entries.map { entry in
            var host = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host.hasPrefix("["), host.hasSuffix("]") {
                host = String(host.dropFirst().dropLast())
            }
            return host
        }
    }

    /// Whether `host` (lowercased, IPv6 without brackets) goes direct.
    func matches(host: String) -> Bool {
        if matchesEverything { return true }
        let host = host.hasSuffix(".") ? String(host.dropLast()) : host
        return suffixes.contains { suffix in
            !suffix.isEmpty && (host == suffix || host.hasSuffix("." + suffix))
        }
    }
}
