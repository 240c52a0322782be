import Foundation
import Testing

@testable import MovieCore

private func hexBytes(_ text: String) -> [UInt8] {
    stride(from: 0, to: text.count, by: 2).map { offset in
        let start = text.index(text.startIndex, offsetBy: offset)
        return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16) ?? 0
    }
}

@Suite struct TokenSealerTests {
    /// The GCM specification's test cases 13 and 14 (AES-256, zero key and IV).
    @Test func aesGCMMatchesPublishedVectors() throws {
        let key = [UInt8](repeating: 0, count: 32)
        let nonce = [UInt8](repeating: 0, count: 12)
        #expect(try LibCrypto.aes256GCMSeal([], key: key, nonce: nonce) == hexBytes("530f8afbc74536b9a963b4f1c4cb738b"))
        let sealed = try LibCrypto.aes256GCMSeal([UInt8](repeating: 0, count: 16), key: key, nonce: nonce)
        #expect(sealed == hexBytes("cea7403d4d606b6e074ec5d3baf39d18" + "d0d1c8a799996bf0265b98b5d48ab919"))
        #expect(LibCrypto.aes256GCMOpen(sealed, key: key, nonce: nonce) == [UInt8](repeating: 0, count: 16))
    }

    @Test func sealedTokensOpenOnlyWithTheirKeyAndUnchanged() throws {
        let sealer = try TokenSealer(key: LibCrypto.randomBytes(32))
        let token = "AMf-vBx_refresh-token-\(UUID().uuidString)"
        let stored = try sealer.seal(token)
        #expect(stored.hasPrefix("v1:"))
        #expect(!stored.contains(token) && !stored.contains("refresh-token"))
        #expect(sealer.open(stored) == token)
        #expect(try sealer.seal(token) != stored)  // a fresh nonce each time

        #expect(try TokenSealer(key: LibCrypto.randomBytes(32)).open(stored) == nil)
        var bytes = try #require(Data(base64Encoded: String(stored.dropFirst(3))))
        bytes[bytes.count - 1] ^= 1
        #expect(sealer.open("v1:" + bytes.base64EncodedString()) == nil)
        #expect(sealer.open(token) == nil)  // a token stored before sealing existed is not taken as sealed
        #expect(sealer.open("v1:not base64") == nil)
    }

    @Test func keyFileIsCreatedPrivatelyOnceAndReused() throws {
        let folder = NSTemporaryDirectory() + "TokenSealerTests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/config/movie-rpc/secrets.key"
        let first = try TokenSealer.loadingKey(at: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.intValue == 32)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder + "/config/movie-rpc")
        #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)

        let stored = try first.seal("secret")
        #expect(try TokenSealer.loadingKey(at: path).open(stored) == "secret")

        #expect(FileManager.default.createFile(atPath: path, contents: Data("short".utf8)))
        #expect(throws: TokenSealer.KeyFileError.self) { try TokenSealer.loadingKey(at: path) }
    }

    /// Issue 13.14: a key file others could read was used without a word.
    @Test(arguments: [0o644, 0o640, 0o604, 0o660, 0o606])
    func aKeyFileOpenToOthersIsRefusedAsSshRefusesAKey(_ mode: Int) throws {
        let folder = NSTemporaryDirectory() + "TokenSealerTests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/secrets.key"
        let sealer = try TokenSealer.loadingKey(at: path)
        let sealed = try sealer.seal("secret")
        #expect(chmod(path, mode_t(mode)) == 0)
        do {
            _ = try TokenSealer.loadingKey(at: path)
            Issue.record("a key file with mode \(String(mode, radix: 8)) was used")
        } catch let error as TokenSealer.KeyFileError {
            #expect(error.description.contains("accessible by others"))
            #expect(error.description.contains("0" + String(mode, radix: 8)))
            #expect(error.description.contains("chmod 600 \(path)"))
        }
        // The key itself is untouched: once private again it opens what it sealed.
        #expect(chmod(path, 0o600) == 0)
        #expect(try TokenSealer.loadingKey(at: path).open(sealed) == "secret")
    }

    @Test func keyPathFollowsTheEnvironment() {
        #expect(TokenSealer.defaultKeyPath(environment: ["MOVIE_RPC_KEY_FILE": "/k", "HOME": "/h"]) == "/k")
        #expect(TokenSealer.defaultKeyPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])
            == "/x/movie-rpc/secrets.key")
        #expect(TokenSealer.defaultKeyPath(environment: ["HOME": "/h"]) == "/h/.config/movie-rpc/secrets.key")
    }
}
