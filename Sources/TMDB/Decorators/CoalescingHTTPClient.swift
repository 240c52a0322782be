import HTTPTransport

/// Makes identical concurrent `GET`/`HEAD` requests (same URL and headers, no body) share one
/// in-flight request to the wrapped client. Nothing is cached: once the shared request finishes,
/// the next identical request goes out again.
///
/// A caller that is cancelled stops waiting at once with `CancellationError`; the shared request
/// is cancelled only when every caller waiting for it has been cancelled.
public struct CoalescingHTTPClient: HTTPClient {
    private let wrapped: any HTTPClient
    private let inFlight: InFlightRequests

    /// Creates a coalescing decorator around `wrapping`.
    public init(wrapping: any HTTPClient) {
        self.init(wrapping: wrapping, onJoin: nil)
    }

    /// Creates a decorator that reports, after each caller joins, how many callers share its request.
    init(wrapping: any HTTPClient, onJoin: (@Sendable (_ waiters: Int) -> Void)?) {
        self.wrapped = wrapping
        self.inFlight = InFlightRequests(onJoin: onJoin)
    }

    /// Sends `request`, joining an identical request already in flight when there is one.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .get || request.method == .head, request.body == nil else {
            return try await wrapped.send(request)
        }
        return try await inFlight.response(for: request, using: wrapped)
    }

    /// The number of distinct requests currently in flight (for tests).
    var inFlightCount: Int {
        get async { await inFlight.count }
    }
}
