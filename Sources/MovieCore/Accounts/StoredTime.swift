#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the ISO 8601 timestamps the account and favorites tables store (`Timestamp.string`, millisecond
/// precision), snapped to the whole millisecond: a parsed value can land a hair below it, and would then
/// format one millisecond early.
enum StoredTime {
    static func date(_ text: String) -> Date? {
        guard let date = Timestamp.parse(text) else { return nil }
        return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
