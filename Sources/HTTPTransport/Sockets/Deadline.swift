/// The moment a request must be finished by; every wait (connect, TLS handshake, write, read) uses what is left.
struct Deadline: Sendable {
    let instant: ContinuousClock.Instant

    /// - Parameter seconds: clamped to 0...1e9 (about 31 years), so that the nanoseconds fit an `Int64`.
    init(secondsFromNow seconds: Double) {
        let clamped = seconds.isFinite ? min(max(0, seconds), 1e9) : 1e9
        instant = .now + .nanoseconds(Int64((clamped * 1e9).rounded(.up)))
    }

    /// The time left in whole milliseconds, rounded up so that a wait never ends just before the deadline.
    /// - Throws: `HTTPTransportError.Code.timedOut` once the deadline has passed.
    func remainingMilliseconds() throws(HTTPTransportError) -> Int32 {
        let remaining = ContinuousClock.now.duration(to: instant)
        guard remaining > .zero else { throw HTTPTransportError(.timedOut) }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
