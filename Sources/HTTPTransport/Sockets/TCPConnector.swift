#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Resolves a host and opens a non-blocking TCP connection to the first of its addresses that accepts.
enum TCPConnector {
    /// Returns a connected, non-blocking socket (`TCP_NODELAY` set) to `host`:`port`, and the class of the
    /// address it is connected to.
    ///
    /// `getaddrinfo` blocks, so this runs on the request's I/O thread, never on the cooperative pool.
    /// - Parameter admits: which addresses may be connected to; the others are skipped without a packet sent.
    /// - Throws: `HTTPTransportError.Code.cannotFindHost` (no address), `.cannotConnectToHost` (refused or unreachable),
    ///   `.timedOut`, ``AddressNotAdmitted`` (every address was refused by `admits`), or `CancellationError`.
    static func connect(
        host: String, port: Int, deadline: Deadline, cancellation: RequestCancellation,
        admits: (AddressClass) -> Bool = { _ in true }
    ) throws -> (socket: Int32, addressClass: AddressClass) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var addresses: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &addresses) == 0, let first = addresses else {
            throw HTTPTransportError(.cannotFindHost)
        }
        defer { freeaddrinfo(first) }
        try cancellation.check()

        var lastError: any Error = AddressNotAdmitted()
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let address = cursor {
            cursor = address.pointee.ai_next
            guard let socketAddress = address.pointee.ai_addr else { continue }
            let addressClass = AddressClass.of(socketAddress)
            guard admits(addressClass) else { continue }
            do {
                return (try connect(to: address.pointee, deadline: deadline, cancellation: cancellation), addressClass)
            } catch let error as HTTPTransportError where error != HTTPTransportError(.timedOut) {
                lastError = error  // refused or unreachable: the next address may answer
            }
        }
        throw lastError
    }

    private static func connect(to address: addrinfo, deadline: Deadline, cancellation: RequestCancellation) throws
        -> Int32
    {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let socket = Glibc.socket(address.ai_family, type, address.ai_protocol)
        guard socket >= 0 else { throw HTTPTransportError(.cannotConnectToHost) }
        do {
            if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) != 0 {
                guard errno == EINPROGRESS || errno == EINTR else { throw connectError(errno) }
                try SocketWait.wait(for: .writable, on: socket, deadline: deadline, cancellation: cancellation)
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else {
                    throw connectError(errno)
                }
                if failure != 0 { throw connectError(failure) }
            }
            // Requests are written in one piece and answered at once: Nagle's delay only slows them.
            var enabled: Int32 = 1
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
            return socket
        } catch {
            close(socket)
            throw error
        }
    }

    /// Every address of the host was of a class the caller does not admit; nothing was sent.
    struct AddressNotAdmitted: Error {}

    /// Refused, unreachable or anything else at connect time: the host cannot be reached.
    private static func connectError(_ code: Int32) -> HTTPTransportError {
        code == ETIMEDOUT ? HTTPTransportError(.timedOut) : HTTPTransportError(.cannotConnectToHost)
    }
}
