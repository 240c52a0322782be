#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

// OpenSSL spells these as macros over SSL_ctrl/SSL_CTX_ctrl, which Swift cannot import.

static inline int copenssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int copenssl_set_min_protocol_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

static inline int copenssl_set_mode(SSL_CTX *context, long mode) {
    return (int)SSL_CTX_set_mode(context, mode);
}

// Servers that close without close_notify end a close-delimited body rather than failing it.
static inline void copenssl_ignore_unexpected_eof(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
}
