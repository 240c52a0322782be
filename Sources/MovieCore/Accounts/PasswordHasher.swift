import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Hashes and verifies passwords with PBKDF2-HMAC-SHA256 (OWASP: 600,000 iterations), a random 16-byte
/// salt per password and a 32-byte derived key, stored as a ``PasswordHash`` string.
///
/// The key derivation takes hundreds of milliseconds at the default cost, so it runs on a dispatch queue of
/// its own: never on the database actor, never blocking the Swift concurrency pool. Passwords are
/// normalized to Unicode NFC before hashing, so the same typed password always gives the same bytes.
public struct PasswordHasher: Sendable {
    /// OWASP's recommendation for PBKDF2-HMAC-SHA256.
    public static let defaultIterations = 600_000
    /// The lowest cost that may be configured (tests use it for speed).
    public static let minimumIterations = 1_000
    static let saltLength = 16
    static let keyLength = 32

    /// The cost new hashes get; hashes stored with less are re-hashed on the next successful login.
    public let iterations: Int

    private static let queue = DispatchQueue(
        label: "movie-rpc.password-kdf", qos: .userInitiated, attributes: .concurrent)

    /// The highest cost that may be configured or stored (`PasswordHash.maximumIterations`).
    public static let maximumIterations = PasswordHash.maximumIterations

    /// `iterations` are kept within ``minimumIterations`` … ``maximumIterations``.
    public init(iterations: Int = PasswordHasher.defaultIterations) {
        self.iterations = min(Self.maximumIterations, max(Self.minimumIterations, iterations))
    }

    /// The outcome of checking a password against a stored hash.
    enum Verification: Equatable {
        case invalid
        /// The password matches; `needsRehash` when the stored cost is below ``iterations``.
        case valid(needsRehash: Bool)
    }

    /// A new stored hash of `password` at ``iterations``.
    func hash(_ password: String) async throws -> String {
        let salt = try LibCrypto.randomBytes(Self.saltLength)
        let iterations = self.iterations
        let key = try await Self.derive(password, salt: salt, iterations: iterations)
        return PasswordHash(iterations: iterations, salt: salt, derivedKey: key).encoded
    }

    /// Checks `password` against `stored` in constant time. A stored string this version cannot parse
    /// never matches.
    ///
    /// A failed check is padded to `attemptIterations` (see ``attemptIterations(highestStored:)``): a
    /// wrong password then costs what an unknown email costs (``burnVerification(_:iterations:)``)
    /// whatever cost its hash was stored with.
    func verify(_ password: String, against stored: String, attemptIterations: Int? = nil) async throws
        -> Verification
    {
        guard let hash = PasswordHash(encoded: stored) else {
            StoreLog.warning("A stored password hash has an unknown format; the login is refused")
            try await burnVerification(password, iterations: attemptIterations ?? iterations)
            return .invalid
        }
        let key = try await Self.derive(
            password, salt: hash.salt, iterations: hash.iterations, length: hash.derivedKey.count)
        guard LibCrypto.constantTimeEqual(key, hash.derivedKey) else {
            let padding = (attemptIterations ?? hash.iterations) - hash.iterations
            if padding > 0 { try await burnVerification(password, iterations: padding) }
            return .invalid
        }
        return .valid(needsRehash: hash.iterations < iterations)
    }

    /// The work of one login attempt, in iterations: the configured cost, or the highest stored cost when
    /// that is higher (a server restarted at a lower cost), never above ``maximumIterations``. Every
    /// failed attempt (unknown email, wrong password, unreadable hash) costs this much, so that timing
    /// tells nothing about which emails have accounts, whatever cost their hashes were stored with.
    func attemptIterations(highestStored: Int?) -> Int {
        min(Self.maximumIterations, max(iterations, highestStored ?? 0))
    }

    /// Does the work of a verification that cannot succeed (`iterations`, by default the configured
    /// cost), so an unknown email costs as much time as a wrong password.
    func burnVerification(_ password: String, iterations: Int? = nil) async throws {
        let salt = [UInt8](repeating: 0x5a, count: Self.saltLength)
        _ = try await Self.derive(password, salt: salt, iterations: max(1, iterations ?? self.iterations))
    }

    /// Runs the key derivation on the KDF queue.
    static func derive(
        _ password: String, salt: [UInt8], iterations: Int, length: Int = keyLength
    ) async throws -> [UInt8] {
        // NFC, so that a password typed with a composed é and one with e + U+0301 derive the same key. The
        // standard library's NFC (what Foundation's precomposedStringWithCanonicalMapping gives).
        let bytes = password._nfcCodeUnits
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    try LibCrypto.pbkdf2SHA256(password: bytes, salt: salt, iterations: iterations, keyLength: length)
                })
            }
        }
    }
}
