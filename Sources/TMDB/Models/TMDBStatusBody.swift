/// TMDB's status body, sent with errors: `{"status_code", "status_message", "success"}`.
///
/// Key order varies in real traffic; decoding is by key. `status_code` is TMDB's own code
/// (e.g. 7 invalid API key, 34 not found, 25 rate limited), not the HTTP status.
public struct TMDBStatusBody: Codable, Sendable, Hashable {
    /// TMDB's status code (`0` when absent).
    public var statusCode: Int
    /// TMDB's human-readable message (`""` when absent). May echo request data; redact before use.
    public var statusMessage: String
    /// `false` on errors; `nil` when absent.
    public var success: Bool?

    /// Creates a status body.
    public init(statusCode: Int, statusMessage: String, success: Bool? = nil) {
        self.statusCode = statusCode
        self.statusMessage = statusMessage
        self.success = success
    }

    enum CodingKeys: String, CodingKey {
        case statusCode = "status_code"
        case statusMessage = "status_message"
        case success
    }

    /// Decodes tolerantly: a missing or `null` field becomes `0` / `""` / `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        statusCode = try container.decode(Int.self, forKey: .statusCode, default: 0)
        statusMessage = try container.decode(String.self, forKey: .statusMessage, default: "")
        success = try container.decodeIfPresent(Bool.self, forKey: .success)
    }
}
