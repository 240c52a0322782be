import Foundation

/// ISO 8601 timestamps in UTC with millisecond precision (`2026-11-30T08:10:00.123Z`), the one format
/// on the wire. Formatting by hand: it runs on every answer, and date formatters are costly.
public enum Timestamp {
    public static func string(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        let millis = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }

    /// Parses ISO 8601 with or without fractional seconds, with `Z` or a numeric offset. Nil when invalid.
    public static func parse(_ text: String) -> Date? {
        guard text.count <= 40 else { return nil }
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        if let date = try? withFraction.parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
