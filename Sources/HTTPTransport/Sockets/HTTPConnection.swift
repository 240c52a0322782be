#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One open connection to an origin: a non-blocking TCP socket, with TLS on top for `https`.
// safe: a connection always has exactly one owner, the request using it or the `ConnectionPool` (which
// hands it out under its lock and forgets it). No two threads touch it at once; it is Sendable only so that
// it can move between them.
final class HTTPConnection: @unchecked Sendable {
    let origin: HTTPOrigin
    /// The class of the origin's address: the one connected to, or through a proxy the origin's host if it
    /// is a literal (else public: only the proxy knows).
    let addressClass: AddressClass
    private let socket: Int32
    private var tls: TLSSession?
    private var isClosed = false
    /// When the connection last went idle; the pool drops it 30 s later.
    var idleSince = ContinuousClock.now

    init(origin: HTTPOrigin, socket: Int32, addressClass: AddressClass) {
        self.origin = origin
        self.socket = socket
        self.addressClass = addressClass
    }

    deinit {
        close()
    }

    /// Starts TLS to the origin over this connection (directly, or through a proxy's tunnel).
    func startTLS(deadline: Deadline, cancellation: RequestCancellation) throws {
        let session = try TLSSession(socket: socket, host: origin.host, hostIsIPLiteral: origin.isIPLiteral)
        try session.handshake(deadline: deadline, cancellation: cancellation)
        tls = session
    }

    /// Writes all of `bytes`. A peer that closed or reset the connection is `HTTPTransportError.Code.networkConnectionLost`.
    func write(_ bytes: [UInt8], deadline: Deadline, cancellation: RequestCancellation) throws {
        if let tls {
            try tls.write(bytes, deadline: deadline, cancellation: cancellation)
            return
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { chunk in
                send(socket, chunk.baseAddress, chunk.count, Int32(MSG_NOSIGNAL))
            }
            if written >= 0 {
                offset += written
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try SocketWait.wait(for: .writable, on: socket, deadline: deadline, cancellation: cancellation)
            } else {
                try cancellation.check()
                throw HTTPTransportError(.networkConnectionLost)
            }
        }
    }

    /// Reads what has arrived into `buffer`, waiting for at least one byte; 0 means the peer closed.
    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline, cancellation: RequestCancellation) throws
        -> Int
    {
        if let tls {
            return try tls.read(into: buffer, deadline: deadline, cancellation: cancellation)
        }
        while true {
            let count = recv(socket, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try SocketWait.wait(for: .readable, on: socket, deadline: deadline, cancellation: cancellation)
            } else {
                try cancellation.check()
                throw HTTPTransportError(.networkConnectionLost)
            }
        }
    }

    /// Whether an idle connection can take another request: still open, and nothing unasked-for to read.
    var isReusable: Bool {
        !isClosed && tls?.hasBufferedBytes != true && SocketWait.isQuiet(socket)
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        tls = nil  // SSL_free before the descriptor it uses is closed
        Glibc.close(socket)
    }
}
