/// How a request proves it may use TMDB's v3 API.
///
/// Both forms grant the same access. The secret never appears in `description`, `debugDescription`
/// or a `Mirror` of the value, so a credential can be interpolated into a log line safely.
public enum TMDBCredential: Sendable, Equatable {
    /// A 32-hex-character v3 API key, sent as the `api_key` query item.
    case apiKey(String)
    /// An API Read Access Token (a JWT starting `eyJ`), sent as `Authorization: Bearer <token>`.
    case accessToken(String)

    /// The secret string itself; used to build requests and to redact it from messages.
    var secret: String {
        switch self {
        case .apiKey(let key): key
        case .accessToken(let token): token
        }
    }
}

extension TMDBCredential: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The kind of credential, with the secret replaced by a placeholder.
    public var description: String {
        switch self {
        case .apiKey: "TMDBCredential.apiKey(<redacted>)"
        case .accessToken: "TMDBCredential.accessToken(<redacted>)"
        }
    }

    /// Same as ``description``: the secret is never shown.
    public var debugDescription: String { description }

    /// A mirror with no children, so `dump(_:)` cannot print the secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
