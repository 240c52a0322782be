#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// When failed logins lock an email out, and for how long.
///
/// The first ``freeFailures`` failures cost nothing. The next failure locks further attempts for
/// ``baseLock`` seconds, and each failure after a lock has passed doubles it, up to ``maxLock``:
/// with the defaults, 5 failures → 30 s, 6 → 60 s, 7 → 120 s … capped at 15 minutes. Attempts while
/// locked are refused without being checked or counted. A successful login forgets the failures.
/// The state is kept in the database, so restarting the server does not reset it.
public struct LoginThrottle: Sendable, Equatable {
    /// Failures in a row that cost nothing (the next one locks).
    public var freeFailures: Int
    /// The first lock, in seconds.
    public var baseLock: TimeInterval
    /// The longest lock, in seconds.
    public var maxLock: TimeInterval

    /// The defaults lock after the 5th failure for 30 s, doubling up to 15 minutes.
    public init(freeFailures: Int = 4, baseLock: TimeInterval = 30, maxLock: TimeInterval = 900) {
        self.freeFailures = freeFailures
        self.baseLock = baseLock
        self.maxLock = maxLock
    }

    /// How long to lock after `failures` consecutive failures; nil for no lock.
    public func lockDuration(afterFailures failures: Int) -> TimeInterval? {
        guard failures > freeFailures else { return nil }
        let doublings = min(failures - freeFailures - 1, 30)
        return min(baseLock * pow(2, Double(doublings)), maxLock)
    }

    /// Whole seconds from `now` until `lockedUntil` (Unix time), rounded up; nil when it has passed.
    static func secondsLeft(until lockedUntil: Double, now: Date) -> Int? {
        let left = lockedUntil - now.timeIntervalSince1970
        guard left > 0 else { return nil }
        return max(1, Int(left.rounded(.up)))
    }
}
