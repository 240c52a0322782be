import Glibc
import Testing

@testable import HTTPTransport

/// Where a redirect may lead is decided on these classes; refusals of private, link-local and metadata
/// addresses are tested here, on the classification, never by connecting to such an address.
@Suite("AddressClass")
struct AddressClassTests {
    @Test(arguments: [
        ("127.0.0.1", AddressClass.loopback), ("127.0.0.2", .loopback), ("127.255.255.254", .loopback),
        ("::1", .loopback), ("localhost", .loopback), ("LOCALHOST.", .loopback), ("images.localhost", .loopback),
        ("::ffff:127.0.0.1", .loopback), ("0:0:0:0:0:ffff:7f00:1", .loopback),
        ("10.0.0.1", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("192.168.1.1", .privateNetwork), ("100.64.0.1", .privateNetwork), ("fd12:3456::1", .privateNetwork),
        ("fc00::1", .privateNetwork), ("::ffff:10.1.2.3", .privateNetwork), ("198.18.0.1", .privateNetwork),
        ("169.254.1.1", .linkLocal), ("fe80::1", .linkLocal), ("fe80::1%eth0", .linkLocal),
        ("169.254.169.254", .metadata), ("169.254.170.2", .metadata), ("100.100.100.200", .metadata),
        ("fd00:ec2::254", .metadata), ("::ffff:169.254.169.254", .metadata), ("64:ff9b::a9fe:a9fe", .metadata),
        ("2002:a9fe:a9fe::1", .metadata), ("metadata.google.internal", .metadata),
        ("0.0.0.0", .reserved), ("::", .reserved), ("224.0.0.1", .reserved), ("255.255.255.255", .reserved),
        ("ff02::1", .reserved),
        ("8.8.8.8", .publicInternet), ("172.32.0.1", .publicInternet), ("100.128.0.1", .publicInternet),
        ("2606:4700::1111", .publicInternet), ("::ffff:8.8.8.8", .publicInternet),
    ])
    func literals(host: String, expected: AddressClass) {
        #expect(AddressClass.literal(host) == expected, "\(host)")
        #expect(AddressClass.literal(host)?.isPublic == (expected == .publicInternet))
    }

    @Test(arguments: ["image.tmdb.org", "2130706433", "0x7f.1", "127.1", "example.invalid"])
    func namesAndOddSpellingsWaitForResolution(host: String) {
        // Odd IPv4 spellings are left to the check on the address actually connected to.
        #expect(AddressClass.literal(host) == nil)
    }

    @Test func connectingOnlyWhereAdmittedSendsNothingElsewhere() throws {
        let server = try LoopbackServer { _ in .respond("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") }
        defer { server.stop() }
        let cancellation = try RequestCancellation()
        defer { cancellation.finish() }
        #expect(throws: TCPConnector.AddressNotAdmitted.self) {
            _ = try TCPConnector.connect(
                host: "127.0.0.1", port: server.port, deadline: Deadline(secondsFromNow: 60),
                cancellation: cancellation, admits: { $0.isPublic })
        }
        let connected = try TCPConnector.connect(
            host: "127.0.0.1", port: server.port, deadline: Deadline(secondsFromNow: 60), cancellation: cancellation)
        close(connected.socket)
        #expect(connected.addressClass == .loopback)
        #expect(server.connectionsAccepted <= 1)
    }
}
