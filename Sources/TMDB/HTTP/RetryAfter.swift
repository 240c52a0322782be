#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// Reads a `Retry-After` header given in seconds (the HTTP-date form is not used by TMDB and is ignored).
enum RetryAfter {
    static func seconds(from response: HTTPResponse) -> Double? {
        guard let raw = response.value(forHeader: "Retry-After")?.trimmingWhitespace(),
              let seconds = Double(raw), seconds.isFinite, seconds >= 0
        else { return nil }
        return seconds
    }
}
