import Foundation
import HTTPTransport

/// A non-2xx response, thrown inside the client so that ``TMDBErrorMapping`` sees every failure.
struct UnexpectedHTTPStatus: Error {
    let response: HTTPResponse
}

/// The single place where internal failures become public ``TMDBError`` values.
enum TMDBErrorMapping {
    /// Maps a transport error, an ``UnexpectedHTTPStatus``, a `DecodingError` or a cancellation to a
    /// ``TMDBError``. Any upstream message passes through `redactor` first.
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
        let message = body.flatMap { $0.statusMessage.isEmpty ? nil : redactor.redact($0.statusMessage) }

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
}
