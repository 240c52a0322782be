import HTTPTransport

/// Keeps the wrapped client within an upstream rate limit: up to `burst` requests start at once, and
/// beyond that starts are spaced to `perSecond` a second (so any one second holds at most
/// `burst + perSecond`); a 429 holds every later start back for its `Retry-After` (1 s without one). A
/// sync of hundreds of details or a flurry of favorites is smoothed instead of drawing 429s, a 429 is never
/// answered with more requests, and a few requests in a row (a details screen) do not wait at all.
/// Waiting suspends the task; no thread is held.
///
/// Wrap the transport with it, under ``RetryingHTTPClient``, so that retries are paced too.
public struct PacingHTTPClient: HTTPClient {
    /// TMDB allows "somewhere in the 40 requests per second range": 34 a second and bursts of 5 stay
    /// within 40 in any second.
    public static let tmdbRequestsPerSecond = 34.0
    public static let tmdbBurst = 5

    private let wrapped: any HTTPClient
    private let pacer: RequestPacer

    public init(
        wrapping: any HTTPClient, perSecond: Double = PacingHTTPClient.tmdbRequestsPerSecond,
        burst: Int = PacingHTTPClient.tmdbBurst
    ) {
        self.wrapped = wrapping
        self.pacer = RequestPacer(perSecond: perSecond, burst: burst)
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

/// The schedule of ``PacingHTTPClient``, as the generic cell rate algorithm keeps it: the theoretical
/// arrival time of the next request, which may run `burst - 1` intervals ahead of now.
actor RequestPacer {
    private let interval: Duration
    private let tolerance: Duration
    private let clock = ContinuousClock()
    private var theoreticalArrival: ContinuousClock.Instant

    init(perSecond: Double, burst: Int) {
        interval = .nanoseconds(Int64(1e9 / max(perSecond, 0.001)))
        tolerance = interval * max(burst - 1, 0)
        theoreticalArrival = clock.now
    }

    /// Takes the next slot and waits for it. Throws `CancellationError` when cancelled while waiting.
    func waitForTurn() async throws {
        let now = clock.now
        let slot = max(now, theoreticalArrival - tolerance)
        theoreticalArrival = max(theoreticalArrival, slot) + interval
        if slot > now { try await Task.sleep(until: slot, clock: clock) }
    }

    /// No start before `seconds` from now (capped at a minute, whatever the server asks), and no burst
    /// right after it either.
    func pause(for seconds: Double) {
        let until = clock.now + .milliseconds(Int64(max(0, min(seconds, 60)) * 1000))
        theoreticalArrival = max(theoreticalArrival, until + tolerance)
    }
}
