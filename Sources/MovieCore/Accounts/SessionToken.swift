/// A new session's secret: 256 bits from `RAND_bytes`. Only its SHA-256 is stored; the token itself
/// lives in memory just long enough to be hashed, and is never logged or sent.
struct SessionToken: Sendable {
    static let byteCount = 32

    let hash: [UInt8]

    /// A fresh random token, reduced to the hash that is stored.
    static func generate() throws -> SessionToken {
        let token = try LibCrypto.randomBytes(byteCount)
        return SessionToken(hash: try LibCrypto.sha256(token))
    }
}
