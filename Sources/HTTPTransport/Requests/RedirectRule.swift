/// Where one request's redirects may lead, beyond what ``RedirectPolicy`` checks for every request.
///
/// A redirect the rule refuses is not followed: the 3xx response is returned as it came, so the caller can
/// tell "redirected somewhere not allowed" from a transport failure.
public struct RedirectRule: Sendable, Hashable {
    /// Hosts a redirect may go to besides the request's own (lowercased names or IP literals, IPv6 without
    /// brackets); nil: any host.
    public var allowedHosts: Set<String>?
    /// Whether a redirect may reach a loopback, private, link-local or metadata address (``AddressClass``)
    /// when the request's first address was a public one. Checked on the address connected to, after
    /// resolution (so a public-looking name that resolves into the local network is refused too), and on
    /// IP literals before any connection.
    public var allowsNonPublicAddresses: Bool

    /// - Parameters:
    ///   - allowedHosts: hosts besides the request's own; nil: any host.
    ///   - allowsNonPublicAddresses: see ``allowsNonPublicAddresses``.
    public init(allowedHosts: Set<String>?, allowsNonPublicAddresses: Bool) {
        self.allowedHosts = allowedHosts.map { Set($0.map { Self.normalized($0) }) }
        self.allowsNonPublicAddresses = allowsNonPublicAddresses
    }

    /// Any redirect ``RedirectPolicy`` follows (TMDB's API, Firebase: hosts the user configured).
    public static let unrestricted = RedirectRule(allowedHosts: nil, allowsNonPublicAddresses: true)

    /// Redirects only to the request's own host and `hosts`, and into a non-public network only when the
    /// request started there.
    public static func sameHost(or hosts: some Sequence<String>) -> RedirectRule {
        RedirectRule(allowedHosts: Set(hosts), allowsNonPublicAddresses: false)
    }

    /// Whether `host` (of a redirect's target) is allowed after a request that started at `firstHost`.
    func allows(host: String, after firstHost: String) -> Bool {
        guard let allowedHosts else { return true }
        let host = Self.normalized(host)
        return host == Self.normalized(firstHost) || allowedHosts.contains(host)
    }

    /// Lowercased, without brackets or a trailing dot.
    static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
