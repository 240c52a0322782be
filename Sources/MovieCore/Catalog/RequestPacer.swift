import Foundation

/// Spaces upstream requests to at most `perSecond` starts a second, and holds every start back while a
/// rate limit's `Retry-After` runs, so a burst (a sync of many pages and details) stays within TMDB's
/// limit instead of drawing 429s. Waiting suspends the task; no thread is held.
public actor RequestPacer {
    private let interval: Duration
    private let clock = ContinuousClock()
    private var nextStart: ContinuousClock.Instant
    private var pausedUntil: ContinuousClock.Instant

    /// TMDB allows about 40 requests a second; a little under it leaves room for other clients' timing.
    public static let tmdbRequestsPerSecond = 38.0

    public init(perSecond: Double = RequestPacer.tmdbRequestsPerSecond) {
        interval = .nanoseconds(Int64(1e9 / max(perSecond, 0.001)))
        nextStart = clock.now
        pausedUntil = clock.now
    }

    /// Waits for this caller's slot. Throws `CancellationError` when the task is cancelled while waiting.
    public func waitForTurn() async throws {
        let slot = max(clock.now, nextStart, pausedUntil)
        nextStart = slot + interval
        if slot > clock.now { try await Task.sleep(until: slot, clock: clock) }
    }

    /// After a 429: no start until `seconds` have passed.
    public func pause(for seconds: Double) {
        let until = clock.now + .milliseconds(Int64(max(0, min(seconds, 60)) * 1000))
        pausedUntil = max(pausedUntil, until)
        nextStart = max(nextStart, pausedUntil)
    }
}
