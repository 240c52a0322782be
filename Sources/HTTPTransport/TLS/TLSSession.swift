import COpenSSL

/// OpenSSL's TLS state for one connection, driven over a non-blocking socket.
///
/// Every OpenSSL call that would block reports `SSL_ERROR_WANT_READ`/`WANT_WRITE`; the session then waits
/// for the socket with the request's deadline and cancellation, and calls again. Failures keep no detail:
/// OpenSSL's messages may name the host, and only the classification matters to callers.
final class TLSSession {
    private let ssl: OpaquePointer
    private let socket: Int32

    /// Prepares TLS to `host` over `socket`: SNI for names, and the certificate checked for that name or IP.
    init(socket: Int32, host: String, hostIsIPLiteral: Bool) throws(HTTPTransportError) {
        let context = try TLSClientContext.shared.get()
        guard let ssl = SSL_new(context.context) else { throw HTTPTransportError(.secureConnectionFailed) }
        self.ssl = ssl
        self.socket = socket
        let configured: Bool
        if hostIsIPLiteral {
            configured = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1
        } else {
            configured = copenssl_set_server_name(ssl, host) == 1 && SSL_set1_host(ssl, host) == 1
        }
        let alpn: [UInt8] = [8] + Array("http/1.1".utf8)
        guard configured, SSL_set_fd(ssl, socket) == 1,
              SSL_set_alpn_protos(ssl, alpn, UInt32(alpn.count)) == 0
        else { throw HTTPTransportError(.secureConnectionFailed) }
    }

    deinit {
        SSL_free(ssl)
    }

    /// Runs the handshake, certificate and host name checks included.
    func handshake(deadline: Deadline, cancellation: RequestCancellation) throws {
        while true {
            ERR_clear_error()
            let result = SSL_connect(ssl)
            if result == 1 { return }
            try waitAfterFailure(
                of: result, deadline: deadline, cancellation: cancellation,
                otherwise: HTTPTransportError(.secureConnectionFailed))
        }
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8], deadline: Deadline, cancellation: RequestCancellation) throws {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            let written = bytes[offset...].withUnsafeBytes { chunk in
                SSL_write(ssl, chunk.baseAddress, Int32(clamping: chunk.count))
            }
            if written > 0 {
                offset += Int(written)
                continue
            }
            try waitAfterFailure(of: written, deadline: deadline, cancellation: cancellation)
        }
    }

    /// Reads into `buffer`; 0 means the peer closed the connection.
    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline, cancellation: RequestCancellation) throws
        -> Int
    {
        while true {
            ERR_clear_error()
            let count = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
            if count > 0 { return Int(count) }
            if SSL_get_error(ssl, count) == SSL_ERROR_ZERO_RETURN { return 0 }
            try waitAfterFailure(of: count, deadline: deadline, cancellation: cancellation)
        }
    }

    /// Bytes OpenSSL has decrypted but nobody has read: on an idle connection, a reason not to reuse it.
    var hasBufferedBytes: Bool { SSL_pending(ssl) > 0 }

    /// Waits for the socket when OpenSSL asks to; any other failure throws `otherwise`. After the handshake,
    /// a failing record layer means the connection is gone (reset, or cut): `networkConnectionLost`.
    private func waitAfterFailure(
        of result: Int32, deadline: Deadline, cancellation: RequestCancellation,
        otherwise failure: HTTPTransportError = HTTPTransportError(.networkConnectionLost)
    ) throws {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ:
            try SocketWait.wait(for: .readable, on: socket, deadline: deadline, cancellation: cancellation)
        case SSL_ERROR_WANT_WRITE:
            try SocketWait.wait(for: .writable, on: socket, deadline: deadline, cancellation: cancellation)
        default:
            try cancellation.check()
            throw failure
        }
    }
}
