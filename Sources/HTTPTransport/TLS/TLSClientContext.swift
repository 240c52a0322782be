import COpenSSL

/// The one OpenSSL client context of the process: TLS 1.2 or later, peers verified against the system's
/// trust store (or `SSL_CERT_FILE`/`SSL_CERT_DIR`, which OpenSSL's default paths honour).
// safe: the `SSL_CTX` is configured once in `init` and afterwards only passed to `SSL_new`, which OpenSSL
// documents as safe to call concurrently on a shared context.
final class TLSClientContext: @unchecked Sendable {
    let context: OpaquePointer

    /// Made on first use, so a process that never speaks TLS never loads the trust store.
    static let shared: Result<TLSClientContext, HTTPTransportError> = Result { () throws(HTTPTransportError) in
        try TLSClientContext()
    }

    private init() throws(HTTPTransportError) {
        guard let method = TLS_client_method(), let context = SSL_CTX_new(method) else {
            throw HTTPTransportError(.secureConnectionFailed)
        }
        guard copenssl_set_min_protocol_version(context, TLS1_2_VERSION) == 1,
              SSL_CTX_set_default_verify_paths(context) == 1
        else {
            SSL_CTX_free(context)
            throw HTTPTransportError(.secureConnectionFailed)
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        // SSL_write may be retried with an array that moved (Swift owns the buffer, not us).
        _ = copenssl_set_mode(context, Int(SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        copenssl_ignore_unexpected_eof(context)
        self.context = context
    }

    deinit {
        SSL_CTX_free(context)
    }
}
