#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A stored password hash in one self-describing string:
/// `pbkdf2-sha256$<iterations>$<salt, base64>$<derived key, base64>`.
///
/// The algorithm and its cost travel with every hash, so the configured cost can be raised later and
/// older hashes still verify (and are re-hashed on the next successful login).
struct PasswordHash: Equatable, Sendable {
    static let algorithm = "pbkdf2-sha256"
    /// The highest cost a hash may have: it bounds the work of every login attempt (see
    /// `PasswordHasher.attemptIterations`), about 17 times the default.
    static let maximumIterations = 10_000_000
    /// Accepted cost range when parsing; anything outside is treated as a damaged hash.
    static let iterationRange = 1...maximumIterations

    var iterations: Int
    var salt: [UInt8]
    var derivedKey: [UInt8]

    /// The stored form.
    var encoded: String {
        [Self.algorithm, String(iterations), Data(salt).base64EncodedString(), Data(derivedKey).base64EncodedString()]
            .joined(separator: "$")
    }

    init(iterations: Int, salt: [UInt8], derivedKey: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
        self.derivedKey = derivedKey
    }

    /// Parses the stored form; nil when it is not one this version understands.
    init?(encoded: String) {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.algorithm,
            let iterations = Int(parts[1]), Self.iterationRange.contains(iterations),
            let salt = Data(base64Encoded: String(parts[2])), salt.count >= 8,
            let key = Data(base64Encoded: String(parts[3])), (16...64).contains(key.count)
        else { return nil }
        self.iterations = iterations
        self.salt = Array(salt)
        self.derivedKey = Array(key)
    }
}
