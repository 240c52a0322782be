import Foundation

/// Removes secrets (the TMDB credential) from text before it goes into an error or a log line.
///
/// Both the secret as given and its percent-encoded form are replaced, because upstream messages and
/// URLs may echo either.
public struct SecretRedactor: Sendable {
    /// What every occurrence of a secret is replaced with.
    public static let placeholder = "<redacted>"

    private let secrets: [String]

    /// Creates a redactor for the given secrets. Empty strings are ignored.
    public init(secrets: [String]) {
        var all: [String] = []
        for secret in secrets where !secret.isEmpty {
            all.append(secret)
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .tmdbQueryValueAllowed),
               encoded != secret {
                all.append(encoded)
            }
        }
        // Longest first, so a secret that contains another is replaced whole.
        self.secrets = all.sorted { $0.count > $1.count }
    }

    /// Creates a redactor for the secret inside `credential`.
    public init(credential: TMDBCredential) {
        self.init(secrets: [credential.secret])
    }

    /// Returns `text` with every secret replaced by ``placeholder``.
    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.placeholder)
        }
        return result
    }
}

extension SecretRedactor: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Says how many secrets are held, never what they are.
    public var description: String { "SecretRedactor(\(secrets.count) secret(s))" }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with no children, so `dump(_:)` cannot print the secrets.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
