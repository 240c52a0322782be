import HTTPTransport

/// Keeps the wrapped client within an upstream rate limit: request starts are spaced to at most
/// `perSecond` a second, and a 429 holds every later start back for its `Retry-After` (1 s without
/// one), so a burst (a sync of hundreds of details, a flurry of favorites) is smoothed instead of drawing
/// 429s, and a 429 is never answered with more requests. Waiting suspends the task; no thread is held.
///
/// Wrap the transport with it, under ``RetryingHTTPClient``, so that retries are paced too.
public struct PacingHTTPClient: HTTPClient {
    /// TMDB allows "somewhere in the 40 requests per second range"; a little under it leaves room.
    public static let tmdbRequestsPerSecond = 38.0

    private let wrapped: any HTTPClient
    private let pacer: RequestPacer

    public init(wrapping: any HTTPClient, perSecond: Double = PacingHTTPClient.tmdbRequestsPerSecond) {
        self.wrapped = wrapping
        self.pacer = RequestPacer(perSecond: perSecond)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await pacer.waitForTurn()
        let response = try await wrapped.send(request)
        if response.statusCode == 429 {
            await pacer.pause(for: RetryAfter.seconds(from: response) ?? 1)
        }
        return response
    }
}

/// The schedule of ``PacingHTTPClient``: the next free start, and the end of a 429's pause.
actor RequestPacer {
    private let interval: Duration
    private let clock = ContinuousClock()
    private var nextStart: ContinuousClock.Instant

    init(perSecond: Double) {
        interval = .nanoseconds(Int64(1e9 / max(perSecond, 0.001)))
        nextStart = clock.now
    }

    /// Takes the next slot and waits for it. Throws `CancellationError` when cancelled while waiting.
    func waitForTurn() async throws {
        let slot = max(clock.now, nextStart)
        nextStart = slot + interval
        if slot > clock.now { try await Task.sleep(until: slot, clock: clock) }
    }

    /// No start before `seconds` from now (capped at a minute, whatever the server asks).
    func pause(for seconds: Double) {
        let until = clock.now + .milliseconds(Int64(max(0, min(seconds, 60)) * 1000))
        nextStart = max(nextStart, until)
    }
}
