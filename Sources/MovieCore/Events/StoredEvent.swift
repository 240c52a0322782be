#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One event as stored in the activity log.
public struct StoredEvent: Sendable, Equatable {
    /// Assigned when stored; never reused, even after the event is deleted or pruned.
    public var id: Int64
    public var name: String
    /// Milliseconds since 1970 UTC (see ``EventTime``).
    public var timestampMillis: Int64
    /// The user logged in when the event happened; nil for the anonymous user.
    public var userID: String?
    /// The params as stored: one JSON object, keys sorted, written by ``canonicalJSON(_:)``. Pages are served
    /// from it as it is: decoding and encoding again each event of a page was two thirds of `events.list`.
    public var paramsJSON: String
    /// How many times it happened: a run of identical events the server recorded close together is stored
    /// once (see `EventLog`, "Runs"); 1 for every other event.
    public var repeats: Int
    /// When it last happened: ``timestampMillis`` unless ``repeats`` is more than 1.
    public var lastTimestampMillis: Int64

    public init(
        id: Int64, name: String, timestampMillis: Int64, userID: String?, params: [String: EventValue],
        repeats: Int = 1, lastTimestampMillis: Int64? = nil
    ) {
        self.init(id: id, name: name, timestampMillis: timestampMillis, userID: userID,
                  paramsJSON: Self.canonicalJSON(params) ?? "{}", repeats: repeats,
                  lastTimestampMillis: lastTimestampMillis)
    }

    init(
        id: Int64, name: String, timestampMillis: Int64, userID: String?, paramsJSON: String, repeats: Int = 1,
        lastTimestampMillis: Int64? = nil
    ) {
        self.id = id
        self.name = name
        self.timestampMillis = timestampMillis
        self.userID = userID
        self.paramsJSON = paramsJSON
        self.repeats = max(1, repeats)
        self.lastTimestampMillis = max(timestampMillis, lastTimestampMillis ?? timestampMillis)
    }

    /// The params, decoded from ``paramsJSON``; empty when the stored text is not an object of params.
    public var params: [String: EventValue] { (try? decodedParams()) ?? [:] }

    /// The params, decoded from ``paramsJSON``. Throws `MovieError.storage(.corrupt)` when the stored text
    /// is not an object of params.
    public func decodedParams() throws -> [String: EventValue] {
        let decoder = JSONDecoder()
        decoder.userInfo[EventValue.storedKey] = true
        do {
            return try decoder.decode([String: EventValue].self, from: Data(paramsJSON.utf8))
        } catch {
            throw MovieError.storage(.corrupt)
        }
    }

    /// The params in the one stored form, decoded from ``paramsJSON`` and written again: for a row another
    /// writer stored. Throws `MovieError.storage(.corrupt)` when the stored text is not an object of params.
    public func canonicalParamsJSON() throws -> String {
        guard let text = Self.canonicalJSON(try decodedParams()) else { throw MovieError.storage(.corrupt) }
        return text
    }

    /// The one stored form of params: JSON, keys sorted, slashes unescaped (as results are written).
    static func canonicalJSON(_ params: [String: EventValue]) -> String? {
        if let plain = plainJSON(params) { return plain }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(params) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The same bytes `JSONEncoder` writes, without it, for the params the server records itself: integers
    /// under keys that need no escaping (`{}`, `{"movieId":550}`, `{"page":2}`). Recording an event ran
    /// `JSONEncoder` for these on every call (4 % of a cached `genres.list`); anything else takes it still.
    /// Written as bytes: five `String` appends and a sort of one member were 4,200 instructions an event.
    private static func plainJSON(_ params: [String: EventValue]) -> String? {
        if params.isEmpty { return "{}" }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(2 + params.count * 32)
        func append(_ key: String, _ value: EventValue) -> Bool {
            guard case .int(let value) = value, !key.isEmpty,
                  key.utf8.allSatisfy({ $0 < 0x80 && ($0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
                      || $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                      || (0x61...0x7A).contains($0)) })
            else { return false }
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: key.utf8)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: String(value).utf8)  // a small string: no allocation
            return true
        }
        if params.count == 1, let only = params.first {
            guard append(only.key, only.value) else { return nil }
        } else {
            // The pairs sorted, not the keys then a lookup each.
            for (key, value) in params.sorted(by: { $0.key < $1.key }) {
                guard append(key, value) else { return nil }
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The position of this event in newest-first order, for the next page.
    public var cursor: EventCursor {
        EventCursor(timestampMillis: timestampMillis, id: id)
    }
}
