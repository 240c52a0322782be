#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Firestore field value as the REST API encodes it: an object with one key naming the type
/// (`{"integerValue": "550"}`, `{"timestampValue": "2026-12-01T21:42:26.123456Z"}`). Only the types the
/// sync documents use; any other decodes as `.unsupported` (and the document is then refused).
enum FirestoreValue: Sendable, Equatable, Codable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case string(String)
    /// RFC 3339, UTC.
    case timestamp(String)
    /// A document name, for query cursors.
    case reference(String)
    case unsupported

    private enum Key: String, CodingKey {
        case nullValue, booleanValue, integerValue, stringValue, timestampValue, referenceValue
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if container.contains(.nullValue) {
            self = .null
        } else if let value = try container.decodeIfPresent(Bool.self, forKey: .booleanValue) {
            self = .boolean(value)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .integerValue) {
            // int64 travels as a decimal string.
            self = Int64(text).map(FirestoreValue.integer) ?? .unsupported
        } else if let value = try container.decodeIfPresent(String.self, forKey: .stringValue) {
            self = .string(value)
        } else if let value = try container.decodeIfPresent(String.self, forKey: .timestampValue) {
            self = .timestamp(value)
        } else if let value = try container.decodeIfPresent(String.self, forKey: .referenceValue) {
            self = .reference(value)
        } else {
            self = .unsupported
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .null, .unsupported: try container.encodeNil(forKey: .nullValue)
        case .boolean(let value): try container.encode(value, forKey: .booleanValue)
        case .integer(let value): try container.encode(String(value), forKey: .integerValue)
        case .string(let value): try container.encode(value, forKey: .stringValue)
        case .timestamp(let value): try container.encode(value, forKey: .timestampValue)
        case .reference(let value): try container.encode(value, forKey: .referenceValue)
        }
    }

    var int64: Int64? { if case .integer(let value) = self { value } else { nil } }
    var bool: Bool? { if case .boolean(let value) = self { value } else { nil } }
    var string: String? { if case .string(let value) = self { value } else { nil } }
    /// A timestamp in microseconds since 1970.
    var microseconds: Int64? { if case .timestamp(let text) = self { FirestoreTime.microseconds(text) } else { nil } }
}

/// Firestore timestamps (RFC 3339 UTC with up to nine fractional digits) as microseconds since 1970, and
/// back. Integers, so comparing and formatting never rounds.
enum FirestoreTime {
    static func microseconds(_ text: String) -> Int64? {
        guard text.utf8.count <= 40, text.hasSuffix("Z"), text.utf8.count >= 20 else { return nil }
        let body = text.dropLast()
        let seconds: Substring
        var fraction: Substring = ""
        if let dot = body.firstIndex(of: ".") {
            seconds = body[..<dot]
            fraction = body[body.index(after: dot)...]
        } else {
            seconds = body
        }
        guard fraction.utf8.count <= 9, fraction.allSatisfy(\.isASCII), fraction.allSatisfy(\.isNumber),
              let date = try? Date.ISO8601FormatStyle().parse(seconds + "Z")
        else { return nil }
        let given = String(fraction.prefix(6))
        let digits = given + String(repeating: "0", count: 6 - given.count)
        guard let micros = Int64(digits) else { return nil }
        return Int64(date.timeIntervalSince1970) * 1_000_000 + micros
    }

    static func string(microseconds: Int64) -> String {
        let (seconds, micros) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let whole = micros < 0 ? seconds - 1 : seconds
        let rest = micros < 0 ? micros + 1_000_000 : micros
        let prefix = Timestamp.string(Date(timeIntervalSince1970: TimeInterval(whole))).prefix(19)
        let digits = String(rest)
        return prefix + "." + String(repeating: "0", count: 6 - digits.count) + digits + "Z"
    }

    static func string(milliseconds: Int64) -> String { string(microseconds: milliseconds * 1000) }
}

/// A document as the REST API sends and takes it.
struct FirestoreDocument: Sendable, Codable, Equatable {
    var name: String?
    var fields: [String: FirestoreValue]?
    var updateTime: String?
}
