#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// ISO 8601 in UTC with milliseconds, as on the wire (the bytes `Timestamp.string` writes for
    /// `date(millis:)`).
    public static func string(millis: Int64) -> String {
        Timestamp.string(millis: millis)
    }

    /// Parses an RFC 3339 date-time (`2026-11-30T08:00:00.123Z`, `…+02:00`) to milliseconds, rounding a
    /// longer fraction down; nil unless every field is real: years 0001-9999, a day the month has, hours
    /// 00-23, minutes and seconds 00-59 (no leap second: a Unix millisecond cannot hold one), offsets up to
    /// ±23:59. Foundation's parser rolled `2026-02-30` over to March, `24:00` to the next day and year 0000
    /// to `-001-12-30`; this one refuses them.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard (20...40).contains(bytes.count) else { return nil }
        var position = 0
        func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<(position + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard position < bytes.count, characters.utf8.contains(bytes[position]) else { return false }
            position += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            expect("Tt"), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
            let second = digits(2)
        else { return nil }
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...AccountValidator.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        var millis = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let start = position
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
                if position - start < 3 { millis = millis * 10 + Int(bytes[position] - 0x30) }
                position += 1
            }
            let fractionDigits = position - start
            guard fractionDigits > 0 else { return nil }
            if fractionDigits < 3 {
                for _ in fractionDigits..<3 { millis *= 10 }
            }
        }
        var offsetSeconds = 0
        if expect("Zz") {
            offsetSeconds = 0
        } else if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            let sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            guard let offsetHours = digits(2), expect(":"), let offsetMinutes = digits(2),
                (0...23).contains(offsetHours), (0...59).contains(offsetMinutes)
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard position == bytes.count else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        return seconds * 1000 + Int64(millis)
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
