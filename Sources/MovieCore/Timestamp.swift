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

/// ISO 8601 timestamps in UTC with millisecond precision (`2026-11-30T08:10:00.123Z`), the one format
/// on the wire. Formatting by hand: it runs on every answer, and date formatters are costly.
public enum Timestamp {
    public static func string(_ date: Date) -> String {
        string(millis: millis(date))
    }

    /// The millisecond of `date` since 1970, rounded down (the one a timestamp of it shows).
    public static func millis(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The timestamp of millisecond `millis` since 1970: written from the integer for years 0001-9999 (no
    /// `Date`, no `gmtime_r`; every event of a page and every catalog answer is written through here).
    public static func string(millis: Int64) -> String {
        guard isWritable(millis: millis) else { return outOfRange(millis: millis) }
        return String(unsafeUninitializedCapacity: length) { text in
            write(millis: millis, into: text)
            return length
        }
    }

    /// The length of every timestamp of years 0001-9999.
    public static let length = 24

    /// Whether `write(millis:into:)` writes the timestamp of `millis`: years 0001-9999.
    public static func isWritable(millis: Int64) -> Bool {
        (minimumMillis...maximumMillis).contains(millis)
    }

    /// Writes the timestamp of `millis`, which ``isWritable(millis:)``, into the first ``length`` bytes of
    /// `text`: a reply's writer puts it straight into the reply, with no `String` made for it.
    public static func write(millis: Int64, into text: UnsafeMutableBufferPointer<UInt8>) {
        guard isWritable(millis: millis), text.count >= length else { return }
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let inDay = Int(millis - days * 86_400_000)
        let (year, month, day) = civil(daysSinceEpoch: Int(days))
        // Digits written in place: `String(format:)` cost ~10 µs a call, which a list of 1,000 favorites
        // paid 1,000 times.
        func put(_ value: Int, at offset: Int, digits: Int) {
            var rest = value
            for position in stride(from: offset + digits - 1, through: offset, by: -1) {
                text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(year, at: 0, digits: 4)
        text[4] = UInt8(ascii: "-")
        put(month, at: 5, digits: 2)
        text[7] = UInt8(ascii: "-")
        put(day, at: 8, digits: 2)
        text[10] = UInt8(ascii: "T")
        put(inDay / 3_600_000, at: 11, digits: 2)
        text[13] = UInt8(ascii: ":")
        put(inDay / 60_000 % 60, at: 14, digits: 2)
        text[16] = UInt8(ascii: ":")
        put(inDay / 1000 % 60, at: 17, digits: 2)
        text[19] = UInt8(ascii: ".")
        put(inDay % 1000, at: 20, digits: 3)
        text[23] = UInt8(ascii: "Z")
    }

    /// 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z.
    static let minimumMillis: Int64 = -62_135_596_800_000
    static let maximumMillis: Int64 = 253_402_300_799_999

    /// Years outside 0001-9999 (never a real answer's), as the C library breaks them down.
    private static func outOfRange(millis: Int64) -> String {
        var seconds = time_t(millis >= 0 ? millis / 1000 : (millis - 999) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let date = zeroPadded(Int(parts.tm_year) + 1900, 4) + "-" + zeroPadded(Int(parts.tm_mon) + 1, 2) + "-"
            + zeroPadded(Int(parts.tm_mday), 2)
        let time = zeroPadded(Int(parts.tm_hour), 2) + ":" + zeroPadded(Int(parts.tm_min), 2) + ":"
            + zeroPadded(Int(parts.tm_sec), 2) + "." + zeroPadded(Int(millis - Int64(seconds) * 1000), 3)
        return date + "T" + time + "Z"
    }

    /// `value` in at least `width` characters, zeros after the sign, as printf's `%0*d` writes it.
    private static func zeroPadded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Parses ISO 8601 with or without fractional seconds, with `Z` or a numeric offset. Nil when invalid.
    public static func parse(_ text: String) -> Date? {
        guard text.count <= 40 else { return nil }
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        if let date = try? withFraction.parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
