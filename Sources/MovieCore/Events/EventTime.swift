import Foundation

/// Event timestamps are whole milliseconds since 1970-01-01T00:00:00Z, stored as integers, so that they
/// compare exactly and round-trip through ISO 8601 text without drifting by a millisecond.
public enum EventTime {
    /// The millisecond of `date`, rounding down (a parsed `…00.123Z` gives …123, never …122).
    public static func millis(_ date: Date) -> Int64 {
        // Round to whole microseconds first: a parsed ".123" is stored as 0.12299999… in a Double.
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard let whole = Int64(exactly: micros.magnitude < 9e18 ? micros : 0) else { return 0 }
        return whole >= 0 ? whole / 1000 : (whole - 999) / 1000
    }

    /// The current millisecond.
    public static func now() -> Int64 {
        millis(Date())
    }

    /// A date inside millisecond `millis`, such that `millis(date(millis: m)) == m`.
    public static func date(millis: Int64) -> Date {
        // The half-millisecond offset keeps `Timestamp.string`, which rounds down, on the right millisecond.
        Date(timeIntervalSince1970: (Double(millis) + 0.5) / 1000)
    }

    /// ISO 8601 in UTC with milliseconds, as on the wire.
    public static func string(millis: Int64) -> String {
        Timestamp.string(date(millis: millis))
    }

    /// Parses ISO 8601 (see `Timestamp.parse`) to milliseconds; nil when invalid.
    public static func parse(_ text: String) -> Int64? {
        Timestamp.parse(text).map(millis)
    }
}
