#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every failure ``TMDBClient/send(_:)`` can report. Messages inside are already redacted.
public enum TMDBError: Error, Sendable, Hashable {
    /// TMDB could not be reached (no network, DNS, refused, timed out, or another transport failure).
    case offline
    /// HTTP 401: the credential was rejected (TMDB status_code 7, 3 or 10). The message is redacted.
    case unauthorized(statusMessage: String)
    /// HTTP 404: the resource does not exist (TMDB status_code 34).
    case notFound
    /// HTTP 429: too many requests. `retryAfter` is the `Retry-After` header in seconds, when sent.
    case rateLimited(retryAfter: Double?)
    /// Any other non-2xx status. `statusCode`/`message` come from TMDB's status body when present;
    /// `retryable` is true for 5xx and false for 4xx.
    case server(httpStatus: Int, statusCode: Int?, message: String?, retryable: Bool)
    /// A 2xx response whose body was not the expected JSON shape.
    case invalidResponse
    /// The calling task was cancelled.
    case cancelled

    /// Whether trying the same request again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .offline, .rateLimited: true
        case .server(_, _, _, let retryable): retryable
        case .unauthorized, .notFound, .invalidResponse, .cancelled: false
        }
    }
}

extension TMDBError: CustomStringConvertible, LocalizedError {
    /// A one-line description, safe to log (no URL, no credential).
    public var description: String {
        switch self {
        case .offline:
            return "TMDB is unreachable"
        case .unauthorized(let message):
            return "TMDB rejected the credential: \(message)"
        case .notFound:
            return "TMDB resource not found"
        case .rateLimited(let retryAfter):
            return retryAfter.map { "TMDB rate limit hit; retry after \($0) s" } ?? "TMDB rate limit hit"
        case .server(let httpStatus, let statusCode, let message, _):
            var text = "TMDB returned HTTP \(httpStatus)"
            if let statusCode { text += " (status_code \(statusCode))" }
            if let message, !message.isEmpty { text += ": \(message)" }
            return text
        case .invalidResponse:
            return "TMDB sent a response in an unexpected shape"
        case .cancelled:
            return "TMDB request cancelled"
        }
    }

    /// Same as ``description``, so `localizedDescription` is safe to log too.
    public var errorDescription: String? { description }
}
