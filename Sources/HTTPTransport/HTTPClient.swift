/// Sends one HTTP request and returns the response.
///
/// Implementations return every HTTP status (including 4xx/5xx) as an ``HTTPResponse`` and throw only
/// for transport failures, preferably as ``HTTPTransportError``. Decorators such as
/// ``RetryingHTTPClient`` wraps another client.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the response, whatever its status code.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
