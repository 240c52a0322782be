#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The kind of network an IP address belongs to: what decides whether a redirect may lead there.
///
/// A download whose configured base is on the internet must not be redirected into the machine or its
/// network (a local service, a router, a cloud metadata service holding credentials): every class but
/// ``publicInternet`` is such a place.
public enum AddressClass: String, Sendable, Hashable {
    /// Any address not listed below.
    case publicInternet
    /// `127.0.0.0/8`, `::1`, and the names `localhost` and `*.localhost` (RFC 6761).
    case loopback
    /// `10/8`, `172.16/12`, `192.168/16`, carrier-grade NAT `100.64/10`, unique local `fc00::/7`, and the
    /// benchmarking `198.18/15`.
    case privateNetwork
    /// `169.254/16`, `fe80::/10`.
    case linkLocal
    /// Cloud instance metadata services: `169.254.169.254` (AWS, GCP, Azure, OpenStack…), `169.254.170.2`
    /// (ECS), `fd00:ec2::254` (AWS IPv6), `100.100.100.200` (Alibaba), and `metadata.google.internal`.
    case metadata
    /// Unspecified, "this network", multicast, broadcast and reserved ranges: nothing to download from.
    case reserved

    /// Whether the address is on the public internet.
    public var isPublic: Bool { self == .publicInternet }

    /// The class of an IPv4 address, given as its four bytes in network order.
    public static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> AddressClass {
        switch (a, b, c, d) {
        case (169, 254, 169, 254), (169, 254, 170, 2), (100, 100, 100, 200): return .metadata
        case (127, _, _, _): return .loopback
        case (10, _, _, _), (192, 168, _, _): return .privateNetwork
        case (172, _, _, _) where (16...31).contains(b): return .privateNetwork
        case (100, _, _, _) where (64...127).contains(b): return .privateNetwork
        case (198, _, _, _) where b == 18 || b == 19: return .privateNetwork
        case (169, 254, _, _): return .linkLocal
        case (0, _, _, _): return .reserved
        case (192, 0, 0, _): return .reserved  // IETF protocol assignments (includes NAT64 discovery)
        case _ where a >= 224: return .reserved  // multicast 224/4, reserved 240/4, broadcast
        default: return .publicInternet
        }
    }

    /// The class of an IPv6 address, given as its 16 bytes. Addresses that embed an IPv4 address
    /// (IPv4-mapped, IPv4-compatible, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are classed by that address.
    public static func ipv6(_ bytes: [UInt8]) -> AddressClass {
        guard bytes.count == 16 else { return .reserved }
        let isMapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        let isNAT64 = bytes[0..<12].elementsEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])
        if isMapped || isNAT64 {
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return ipv4(bytes[2], bytes[3], bytes[4], bytes[5])
        }
        let awsMetadata: [UInt8] = [0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54]
        if bytes == awsMetadata { return .metadata }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) {
            if bytes[12..<15].allSatisfy({ $0 == 0 }) {
                return bytes[15] == 1 ? .loopback : .reserved  // ::1, or the unspecified ::
            }
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])  // the deprecated IPv4-compatible ::a.b.c.d
        }
        switch bytes[0] {
        case 0xfc, 0xfd: return .privateNetwork
        case 0xfe where bytes[1] & 0xc0 == 0x80: return .linkLocal
        case 0xfe where bytes[1] & 0xc0 == 0xc0: return .privateNetwork  // deprecated site-local fec0::/10
        case 0xff: return .reserved  // multicast
        default: return .publicInternet
        }
    }

    /// The class of a host as written in a URL, when it can be told without resolving it: an IPv4 or IPv6
    /// literal (IPv6 without brackets), or a name that always means a local place. nil for any other name.
    ///
    /// Only the standard dotted-quad form is read as IPv4 here; other spellings that `getaddrinfo` accepts
    /// (`2130706433`, `0x7f.1`) are names to this function, and are caught when their address is checked
    /// at connection time.
    public static func literal(_ host: String) -> AddressClass? {
        let host = host.hasSuffix(".") ? String(host.dropLast()) : host
        let lowercased = host.lowercased()
        if lowercased == "localhost" || lowercased.hasSuffix(".localhost") { return .loopback }
        if lowercased == "metadata.google.internal" || lowercased == "metadata" { return .metadata }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            return withUnsafeBytes(of: ipv4.s_addr) { Self.ipv4($0[0], $0[1], $0[2], $0[3]) }
        }
        // A zone index (`fe80::1%eth0`) names an interface: only link-local addresses have one.
        let address = host.split(separator: "%", maxSplits: 1).first.map(String.init) ?? host
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, address, &ipv6) == 1 {
            let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
            return address == host ? Self.ipv6(bytes) : .linkLocal
        }
        return nil
    }

    /// The class of a socket address as `getaddrinfo` returns it (IPv4 or IPv6; anything else is reserved).
    static func of(_ address: UnsafePointer<sockaddr>) -> AddressClass {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4Address in
                withUnsafeBytes(of: ipv4Address.pointee.sin_addr.s_addr) { Self.ipv4($0[0], $0[1], $0[2], $0[3]) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6Address in
                Self.ipv6(withUnsafeBytes(of: ipv6Address.pointee.sin6_addr) { Array($0) })
            }
        default:
            return .reserved
        }
    }
}
