import CCrypto

/// The few OpenSSL libcrypto primitives accounts need: random bytes, SHA-256, PBKDF2-HMAC-SHA256,
/// AES-256-GCM and a constant-time comparison. Inputs and outputs are byte arrays; nothing here logs or keeps a secret.
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

    /// AES-256-GCM encryption of `plaintext` with a 32-byte `key` and a 12-byte `nonce` (never reuse one with
    /// the same key). Returns the ciphertext followed by the 16-byte tag.
    static func aes256GCMSeal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws -> [UInt8] {
        guard key.count == 32, nonce.count == 12 else { throw Failure(operation: "AES-256-GCM (parameters)") }
        guard let context = EVP_CIPHER_CTX_new() else { throw Failure(operation: "EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        let status = output.withUnsafeMutableBufferPointer { out -> Bool in
            guard let out = out.baseAddress else { return false }
            return EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1
                && (plaintext.isEmpty || EVP_EncryptUpdate(context, out, &written, plaintext, Int32(plaintext.count)) == 1)
                && EVP_EncryptFinal_ex(context, out + Int(written), &finalWritten) == 1
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, out + plaintext.count) == 1
        }
        guard status, Int(written + finalWritten) == plaintext.count else { throw Failure(operation: "AES-256-GCM seal") }
        return output
    }

    /// Decrypts what ``aes256GCMSeal(_:key:nonce:)`` returned; nil when the tag does not match (wrong key,
    /// or the bytes were changed).
    static func aes256GCMOpen(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        guard key.count == 32, nonce.count == 12, sealed.count >= 16 else { return nil }
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let ciphertextCount = sealed.count - 16
        var tag = Array(sealed[ciphertextCount...])
        var output = [UInt8](repeating: 0, count: ciphertextCount + 16)
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        let status = output.withUnsafeMutableBufferPointer { out -> Bool in
            guard let out = out.baseAddress else { return false }
            return EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1
                && (ciphertextCount == 0
                    || EVP_DecryptUpdate(context, out, &written, sealed, Int32(ciphertextCount)) == 1)
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, &tag) == 1
                && EVP_DecryptFinal_ex(context, out + Int(written), &finalWritten) == 1
        }
        guard status, Int(written + finalWritten) == ciphertextCount else { return nil }
        return Array(output[..<ciphertextCount])
    }
}
