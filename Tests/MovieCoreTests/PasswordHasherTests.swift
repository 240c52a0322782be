import Foundation
import Testing

@testable import MovieCore

private func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}

@Suite struct PasswordHasherTests {
    // MARK: libcrypto primitives against published vectors

    /// RFC 7914 §11 ("Test Vectors for PBKDF2 with HMAC-SHA-256").
    @Test func pbkdf2MatchesRFC7914() throws {
        let first = try LibCrypto.pbkdf2SHA256(
            password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, keyLength: 64)
        #expect(first == hex(
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"))
        let second = try LibCrypto.pbkdf2SHA256(
            password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000, keyLength: 64)
        #expect(second == hex(
            "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
                + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"))
    }

    /// The widely published PBKDF2-HMAC-SHA256 vectors for "password"/"salt".
    @Test(arguments: [
        (1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
        (2, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"),
        (4096, "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"),
    ])
    func pbkdf2MatchesPublishedVectors(_ iterations: Int, _ expected: String) throws {
        let key = try LibCrypto.pbkdf2SHA256(
            password: Array("password".utf8), salt: Array("salt".utf8), iterations: iterations, keyLength: 32)
        #expect(key == hex(expected))
    }

    @Test func sha256AndRandomAndComparison() throws {
        #expect(try LibCrypto.sha256(Array("abc".utf8))
            == hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        let a = try LibCrypto.randomBytes(32)
        let b = try LibCrypto.randomBytes(32)
        #expect(a.count == 32 && b.count == 32 && a != b)
        #expect(LibCrypto.constantTimeEqual(a, a))
        #expect(!LibCrypto.constantTimeEqual(a, b))
        #expect(!LibCrypto.constantTimeEqual(a, Array(a.dropLast())))
        #expect(LibCrypto.constantTimeEqual([], []))
        #expect(throws: LibCrypto.Failure.self) {
            try LibCrypto.pbkdf2SHA256(password: [1], salt: [1], iterations: 0, keyLength: 32)
        }
    }

    @Test func sessionTokensAreHashedRandomValues() throws {
        let first = try SessionToken.generate()
        let second = try SessionToken.generate()
        #expect(first.hash.count == 32)
        #expect(first.hash != second.hash)
    }

    // MARK: The stored format

    @Test func hashFormatRoundTrip() async throws {
        let hasher = PasswordHasher(iterations: 1000)
        let stored = try await hasher.hash("correct horse")
        let parts = stored.split(separator: "$")
        #expect(parts.count == 4)
        #expect(parts[0] == "pbkdf2-sha256")
        #expect(parts[1] == "1000")
        #expect(!stored.contains("correct horse"))
        let parsed = try #require(PasswordHash(encoded: stored))
        #expect(parsed.iterations == 1000)
        #expect(parsed.salt.count == 16)
        #expect(parsed.derivedKey.count == 32)
        #expect(parsed.encoded == stored)
        // The stored key is PBKDF2 of the password with the stored salt and cost.
        let key = try LibCrypto.pbkdf2SHA256(
            password: Array("correct horse".utf8), salt: parsed.salt, iterations: 1000, keyLength: 32)
        #expect(key == parsed.derivedKey)
    }

    @Test func verifiesAndRefuses() async throws {
        let hasher = PasswordHasher(iterations: 1000)
        let stored = try await hasher.hash("correct horse")
        #expect(try await hasher.verify("correct horse", against: stored) == .valid(needsRehash: false))
        #expect(try await hasher.verify("correct horsf", against: stored) == .invalid)
        #expect(try await hasher.verify("", against: stored) == .invalid)
        // Same password, new salt: a different string.
        #expect(try await hasher.hash("correct horse") != stored)
    }

    @Test func normalizesToNFC() async throws {
        let hasher = PasswordHasher(iterations: 1000)
        let stored = try await hasher.hash("caf\u{E9}!")
        #expect(try await hasher.verify("cafe\u{301}!", against: stored) == .valid(needsRehash: false))
    }

    @Test func asksForRehashWhenTheCostWasRaised() async throws {
        let cheap = PasswordHasher(iterations: 1000)
        let raised = PasswordHasher(iterations: 2000)
        let stored = try await cheap.hash("pw1")
        #expect(try await raised.verify("pw1", against: stored) == .valid(needsRehash: true))
        #expect(try await cheap.verify("pw1", against: stored) == .valid(needsRehash: false))
        // A higher stored cost is kept: it still verifies and needs no rehash.
        let stronger = try await PasswordHasher(iterations: 3000).hash("pw1")
        #expect(try await raised.verify("pw1", against: stronger) == .valid(needsRehash: false))
    }

    @Test(arguments: [
        "", "pw1", "bcrypt$10$abc$def",
        "pbkdf2-sha256$abc$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "pbkdf2-sha256$0$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "pbkdf2-sha256$1000$!!$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "pbkdf2-sha256$1000$AAAAAAAAAAAAAAAAAAAAAA==$AAAA",
        "pbkdf2-sha256$1000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=$extra",
    ])
    func unreadableHashesNeverMatch(_ stored: String) async throws {
        #expect(PasswordHash(encoded: stored) == nil)
        #expect(try await PasswordHasher(iterations: 1000).verify("pw1", against: stored) == .invalid)
    }

    @Test func costDefaultsAndMinimum() {
        #expect(PasswordHasher().iterations == 600_000)
        #expect(PasswordHasher.defaultIterations == 600_000)
        #expect(PasswordHasher(iterations: 10).iterations == 1000)
        #expect(PasswordHasher(iterations: 700_000).iterations == 700_000)
    }

    @Test func costMaximumAndTheWorkOfAnAttempt() {
        #expect(PasswordHasher(iterations: 50_000_000).iterations == PasswordHasher.maximumIterations)
        let hasher = PasswordHasher(iterations: 600_000)
        #expect(hasher.attemptIterations(highestStored: nil) == 600_000)
        #expect(hasher.attemptIterations(highestStored: 1000) == 600_000)
        #expect(hasher.attemptIterations(highestStored: 2_000_000) == 2_000_000)
        #expect(hasher.attemptIterations(highestStored: 90_000_000) == PasswordHasher.maximumIterations)
        #expect(PasswordHash(encoded: "pbkdf2-sha256$10000001$AAAAAAAAAAAAAAAAAAAAAA==$"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=") == nil)
    }

    @Test func defaultCostIsRecordedInTheHash() async throws {
        let stored = try await PasswordHasher().hash("pw1")
        #expect(stored.hasPrefix("pbkdf2-sha256$600000$"))
        #expect(try await PasswordHasher().verify("pw1", against: stored) == .valid(needsRehash: false))
    }
}
