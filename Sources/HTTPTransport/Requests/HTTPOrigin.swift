#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Scheme, host and port of a URL: what a connection is opened to, and the key of the connection pool.
struct HTTPOrigin: Hashable, Sendable {
    enum Scheme: String, Sendable {
        case http
        case https

        var defaultPort: Int { self == .https ? 443 : 80 }
    }

    var scheme: Scheme
    /// Lowercased, without the brackets of an IPv6 literal.
    var host: String
    var port: Int

    /// The origin of an `http` or `https` URL with a host; anything else is `HTTPTransportError.Code.unsupportedURL`.
    init(url: URL) throws(HTTPTransportError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme.flatMap({ Scheme(rawValue: $0.lowercased()) }),
              var host = components.percentEncodedHost, !host.isEmpty
        else { throw HTTPTransportError(.unsupportedURL) }
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        let port = components.port ?? scheme.defaultPort
        guard (1...65535).contains(port) else { throw HTTPTransportError(.unsupportedURL) }
        self.init(scheme: scheme, host: host.lowercased(), port: port)
    }

    init(scheme: Scheme, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Whether the host is an IPv6 literal (it needs brackets wherever a port may follow).
    var isIPv6Literal: Bool { host.contains(":") }

    /// Whether the host is an IP address rather than a name (no SNI; certificates are checked by IP).
    var isIPLiteral: Bool {
        isIPv6Literal || (!host.isEmpty && host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
    }

    /// `host[:port]` as the `Host` header wants it: the port only when it is not the scheme's default.
    var hostHeader: String {
        port == scheme.defaultPort ? bracketedHost : "\(bracketedHost):\(port)"
    }

    /// `host:port` with the port always present, as a `CONNECT` request names its target.
    var authority: String { "\(bracketedHost):\(port)" }

    private var bracketedHost: String { isIPv6Literal ? "[\(host)]" : host }

    /// The origin-form request target: the percent-encoded path (never empty) and query.
    static func originFormTarget(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? ""
        var target = path.isEmpty ? "/" : path
        if let query = components?.percentEncodedQuery {
            target += "?" + query
        }
        return target
    }
}
