import Foundation

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
            config = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        return config + "/movie-rpc/secrets.key"
    }

    /// Reads the key at `path`, creating it (32 random bytes, mode 0600, its folder 0700) when missing.
    public static func loadingKey(at path: String) throws -> TokenSealer {
        if let key = try readKey(path) { return try TokenSealer(key: key) }
        let folder = (path as NSString).deletingLastPathComponent
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

    /// The key file could not be read or written (or does not hold 32 bytes).
    public struct KeyFileError: Error, CustomStringConvertible {
        let path: String
        public var description: String { "the key file \(path) is unusable (it must hold exactly 32 bytes)" }
    }

    private static func readKey(_ path: String) throws -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path), data.count == 32 else {
            throw KeyFileError(path: path)
        }
        return [UInt8](data)
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
