#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Seals the one secret that must be stored to be used later, Firebase's refresh token, with AES-256-GCM
/// under a key kept outside the data directory: a copy of the data directory (a backup, a bug report, a
/// synced folder) then carries no usable credential. Stored form: `v1:` + base64(nonce ‖ ciphertext ‖ tag).
public struct TokenSealer: Sendable {
    static let prefix = "v1:"
    private let key: [UInt8]

    /// A sealer with a 32-byte key.
    init(key: [UInt8]) throws {
        guard key.count == 32 else { throw LibCrypto.Failure(operation: "AES-256-GCM (key length)") }
        self.key = key
    }

    /// `$MOVIE_RPC_KEY_FILE`, else `$XDG_CONFIG_HOME/movie-rpc/secrets.key`, else
    /// `~/.config/movie-rpc/secrets.key`: beside the user's configuration, not their data.
    public static func defaultKeyPath(environment: [String: String]) -> String {
        if let path = environment["MOVIE_RPC_KEY_FILE"], !path.isEmpty { return path }
        let config: String
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            config = xdg
        } else {
            config = (environment["HOME"] ?? FilePaths.homeFolder()) + "/.config"
        }
        return config + "/movie-rpc/secrets.key"
    }

    /// Reads the key at `path`, creating it (32 random bytes, mode 0600, its folder 0700) when missing.
    public static func loadingKey(at path: String) throws -> TokenSealer {
        if let key = try readKey(path) { return try TokenSealer(key: key) }
        let folder = FilePaths.parent(of: path)
        if !folder.isEmpty {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let key = try LibCrypto.randomBytes(32)
        let descriptor = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            // Another process created it first: use theirs.
            guard errno == EEXIST, let key = try readKey(path) else { throw KeyFileError(path: path) }
            return try TokenSealer(key: key)
        }
        let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        Glibc.close(descriptor)
        guard written == key.count, synced else {
            unlink(path)
            throw KeyFileError(path: path)
        }
        return try TokenSealer(key: key)
    }

    /// The key file could not be read or written, does not hold 32 bytes, or is not private.
    public struct KeyFileError: Error, CustomStringConvertible {
        let path: String
        /// Set when the file is open to others: its mode.
        var tooOpenMode: mode_t?
        /// Set when the file is not the user's own, or not a regular file.
        var notOwnRegularFile = false

        public var description: String {
            if let mode = tooOpenMode {
                // As ssh words it for a private key: say what is wrong and how to fix it.
                let octal = String(Int(mode & 0o7777), radix: 8)
                let permissions = String(repeating: "0", count: max(0, 4 - octal.count)) + octal
                return "the key file \(path) is accessible by others (permissions \(permissions)); it is ignored: "
                    + "run `chmod 600 \(path)`"
            }
            if notOwnRegularFile {
                return "the key file \(path) is not a regular file owned by this user; it is ignored"
            }
            return "the key file \(path) is unusable (it must hold exactly 32 bytes)"
        }
    }

    /// The key in the file at `path`, or nil when there is none. Like ssh with a private key, a key file
    /// that group or others may read or write (or that is not the user's own regular file) is refused:
    /// whoever can read it can open every sealed refresh token.
    private static func readKey(_ path: String) throws -> [UInt8]? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw KeyFileError(path: path)
        }
        defer { Glibc.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw KeyFileError(path: path) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            throw KeyFileError(path: path, notOwnRegularFile: true)
        }
        guard status.st_mode & 0o077 == 0 else { throw KeyFileError(path: path, tooOpenMode: status.st_mode) }
        var key = [UInt8](repeating: 0, count: 33)
        let count = key.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == 32 else { throw KeyFileError(path: path) }
        return Array(key.prefix(32))
    }

    /// `secret` sealed under a fresh random nonce.
    func seal(_ secret: String) throws -> String {
        let nonce = try LibCrypto.randomBytes(12)
        let sealed = try LibCrypto.aes256GCMSeal(Array(secret.utf8), key: key, nonce: nonce)
        return Self.prefix + Data(nonce + sealed).base64EncodedString()
    }

    /// The secret `seal` sealed; nil for anything else (another key, changed bytes, an unsealed value).
    func open(_ stored: String) -> String? {
        guard stored.hasPrefix(Self.prefix),
            let data = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))), data.count >= 12 + 16
        else { return nil }
        let bytes = [UInt8](data)
        guard let plaintext = LibCrypto.aes256GCMOpen(Array(bytes[12...]), key: key, nonce: Array(bytes[..<12])) else {
            return nil
        }
        return String(validating: plaintext, as: UTF8.self)
    }
}
