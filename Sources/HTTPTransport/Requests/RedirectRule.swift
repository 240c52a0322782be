#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where one request's redirects may lead, beyond what ``RedirectPolicy`` checks for every request.
///
/// A redirect the rule refuses is not followed: the 3xx response is returned as it came, so the caller can
/// tell "redirected somewhere not allowed" from a transport failure.
public struct RedirectRule: Sendable, Hashable {
    /// A host a redirect may go to, with its port (nil: the default port of the redirect's scheme).
    struct Destination: Sendable, Hashable {
        var host: String
        var port: Int?
    }

    /// Where a redirect may go besides the request's own host; nil: anywhere.
    let destinations: Set<Destination>?
    /// Whether a redirect may reach a loopback, private, link-local or metadata address (``AddressClass``)
    /// when the request's first address was a public one. Checked on the address connected to, after
    /// resolution (so a public-looking name that resolves into the local network is refused too), and on
    /// IP literals before any connection.
    public let allowsNonPublicAddresses: Bool

    /// - Parameters:
    ///   - allowedHosts: where a redirect may go besides the request's own host and port: `name`,
    ///     `name:port`, an IP literal (IPv6 in brackets when a port follows); a name without a port allows
    ///     only the default port of the redirect's scheme. nil: anywhere. Malformed entries are ignored.
    ///   - allowsNonPublicAddresses: see ``allowsNonPublicAddresses``.
    public init(allowedHosts: Set<String>?, allowsNonPublicAddresses: Bool) {
        destinations = allowedHosts.map { Set($0.compactMap(Self.destination)) }
        self.allowsNonPublicAddresses = allowsNonPublicAddresses
    }

    /// Any redirect ``RedirectPolicy`` follows (TMDB's API, Firebase: hosts the user configured).
    public static let unrestricted = RedirectRule(allowedHosts: nil, allowsNonPublicAddresses: true)

    /// Redirects only to the request's own host (its port, or 443 for an upgrade to https) and to `hosts`,
    /// and into a non-public network only when the request started there.
    public static func sameHost(or hosts: some Sequence<String>) -> RedirectRule {
        RedirectRule(allowedHosts: Set(hosts), allowsNonPublicAddresses: false)
    }

    /// Whether a redirect to `target` is allowed after a request that started at `first`.
    func allows(_ target: HTTPOrigin, after first: HTTPOrigin) -> Bool {
        guard let destinations else { return true }
        let host = Self.normalized(target.host)
        if host == Self.normalized(first.host),
           target.port == first.port || (target.scheme == .https && target.port == 443) {
            return true
        }
        return destinations.contains(Destination(host: host, port: target.port))
            || (target.port == target.scheme.defaultPort && destinations.contains(Destination(host: host, port: nil)))
    }

    /// `name`, `name:port`, `[v6]`, `[v6]:port` or a bare IPv6 literal; nil when malformed.
    static func destination(_ entry: String) -> Destination? {
        let entry = entry.trimmingWhitespace()
        var host = Substring(entry)
        var port: Substring?
        if entry.hasPrefix("[") {
            guard let close = entry.firstIndex(of: "]") else { return nil }
            host = entry[entry.index(after: entry.startIndex)..<close]
            let rest = entry[entry.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else if entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":") {
            host = entry[..<colon]
            port = entry[entry.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@") else { return nil }
        if let port {
            guard let number = Int(port), (1...65535).contains(number) else { return nil }
            return Destination(host: normalized(String(host)), port: number)
        }
        return Destination(host: normalized(String(host)), port: nil)
    }

    /// Lowercased, without brackets or a trailing dot.
    static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
