import CCrypto

/// The few OpenSSL libcrypto primitives accounts need: random bytes, SHA-256, PBKDF2-HMAC-SHA256 and a
/// constant-time comparison. Inputs and outputs are byte arrays; nothing here logs or keeps a secret.
enum LibCrypto {
    /// libcrypto reported a failure (it never should for these calls with valid arguments).
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        var description: String { "libcrypto \(operation) failed" }
    }

    /// `count` bytes from OpenSSL's CSPRNG (`RAND_bytes`).
    static func randomBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { buffer in
            RAND_bytes(buffer.baseAddress, Int32(buffer.count))
        }
        guard status == 1 else { throw Failure(operation: "RAND_bytes") }
        return bytes
    }

    /// SHA-256 of `bytes` (`EVP_Digest` with `EVP_sha256`).
    static func sha256(_ bytes: [UInt8]) throws -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        guard status == 1, length == 32 else { throw Failure(operation: "EVP_Digest") }
        return digest
    }

    /// PBKDF2-HMAC-SHA256 (`PKCS5_PBKDF2_HMAC`, RFC 8018) of `password` with `salt`.
    static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int) throws -> [UInt8] {
        guard iterations >= 1, iterations <= Int(Int32.max), keyLength >= 1, keyLength <= 1024 else {
            throw Failure(operation: "PKCS5_PBKDF2_HMAC (parameters)")
        }
        var key = [UInt8](repeating: 0, count: keyLength)
        let status = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBufferPointer { saltBuffer in
                key.withUnsafeMutableBufferPointer { output in
                    PKCS5_PBKDF2_HMAC(
                        passwordBytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(passwordBytes.count),
                        saltBuffer.baseAddress, Int32(saltBuffer.count), Int32(iterations), EVP_sha256(),
                        Int32(keyLength), output.baseAddress)
                }
            }
        }
        guard status == 1 else { throw Failure(operation: "PKCS5_PBKDF2_HMAC") }
        return key
    }

    /// Whether `a` and `b` are equal, in time that depends on their length only (`CRYPTO_memcmp`).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}
