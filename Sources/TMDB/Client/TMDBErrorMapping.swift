#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// A non-2xx response, thrown inside the client so that ``TMDBErrorMapping`` sees every failure.
struct UnexpectedHTTPStatus: Error {
    let response: HTTPResponse
}

/// The single place where internal failures become public ``TMDBError`` values.
enum TMDBErrorMapping {
    /// Maps a transport error, an ``UnexpectedHTTPStatus``, a `DecodingError` or a cancellation to a
    /// ``TMDBError``. An upstream message is cleaned of escapes and invisible characters, stripped of the
    /// credential by `redactor`, and capped (``upstreamMessage(_:redactor:)``).
    static func map(_ error: any Error, redactor: SecretRedactor) -> TMDBError {
        switch error {
        case let tmdb as TMDBError:
            return tmdb
        case let status as UnexpectedHTTPStatus:
            return map(status: status.response, redactor: redactor)
        case is DecodingError:
            return .invalidResponse
        case is CancellationError:
            return .cancelled
        default:
            // HTTPTransportError, URLError or anything else a custom HTTPClient throws: no response
            // arrived, so TMDB is unreachable unless the task was cancelled.
            switch HTTPTransportError(error) {
            case .cancelled: return .cancelled
            case .offline, .other: return .offline
            }
        }
    }

    private static func map(status response: HTTPResponse, redactor: SecretRedactor) -> TMDBError {
        let body = try? JSONDecoder().decode(TMDBStatusBody.self, from: response.body)
        let statusCode = body.flatMap { $0.statusCode == 0 ? nil : $0.statusCode }
        let message = body.flatMap { upstreamMessage($0.statusMessage, redactor: redactor) }

        switch response.statusCode {
        case 401:
            return .unauthorized(statusMessage: message ?? "HTTP 401 Unauthorized")
        case 404:
            return .notFound
        case 429:
            return .rateLimited(retryAfter: RetryAfter.seconds(from: response))
        default:
            return .server(
                httpStatus: response.statusCode,
                statusCode: statusCode,
                message: message,
                retryable: (500..<600).contains(response.statusCode)
            )
        }
    }

    /// TMDB's `status_message` as a client may see it, or nil when nothing readable is left: cleaned first
    /// (an escape sequence could split the credential), redacted, then capped (a cut could leave a piece of
    /// the credential too short to recognise).
    static func upstreamMessage(_ text: String, redactor: SecretRedactor) -> String? {
        let message = UpstreamText.capped(redactor.redact(UpstreamText.cleaned(text)))
        return message.isEmpty ? nil : message
    }
}
