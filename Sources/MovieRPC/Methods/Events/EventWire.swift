import JSONRPC
import MovieCore

/// An event as the events methods send it: `userId` is null for the anonymous user, `timestamp` is
/// ISO 8601 UTC with milliseconds, `params` the stored object as it is (checked first); `repeats` is how
/// many times it happened in a run (1 for most) and `lastTimestamp` when it last did (`timestamp` for one
/// occurrence). Members in sorted order, as every result's keys are.
public struct EventWire: WireEncodable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var timestamp: String
    public var userId: String?
    public var params: EncodedJSON
    public var repeats: Int
    public var lastTimestamp: String

    /// Throws `MovieError.storage(.corrupt)` when the stored params are not a JSON object of params.
    public init(_ event: StoredEvent) throws {
        id = event.id
        name = event.name
        timestamp = EventTime.string(millis: event.timestampMillis)
        userId = event.userID
        repeats = event.repeats
        lastTimestamp = event.lastTimestampMillis == event.timestampMillis
            ? timestamp : EventTime.string(millis: event.lastTimestampMillis)
        // The stored text is the canonical form already; only a row not written by this server fails the
        // check, and is then decoded and written again (or refused as corrupt).
        guard let params = try EncodedJSON(validatingObject: event.paramsJSON)
            ?? EncodedJSON(validatingObject: event.canonicalParamsJSON())
        else { throw MovieError.storage(.corrupt) }
        self.params = params
    }

    // `userId` is sent as null rather than left out: clients check one shape.
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("id", Int(id))
            writer.member("lastTimestamp", lastTimestamp)
            writer.member("name", name)
            writer.key("params")
            writer.value(params)
            writer.member("repeats", repeats)
            writer.member("timestamp", timestamp)
            writer.member("userId", userId)
        }
    }
}

/// A page of events, newest first; `nextCursor` is null at the end.
public struct EventPageResult: WireEncodable, Sendable {
    public var events: [EventWire]
    public var nextCursor: String?

    init(_ page: EventPage) throws {
        events = try page.events.map(EventWire.init)
        nextCursor = page.nextCursor?.token
    }

    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("events")
            writer.array(events) { writer, event in event.write(to: &writer) }
            writer.member("nextCursor", nextCursor)
        }
    }
}

/// Checks shared by the events methods' params; each failure is -32602 naming the field.
enum EventParams {
    static let defaultLimit = 50
    static let maxLimit = 500

    static func limit(_ limit: Int?) throws -> Int {
        let limit = limit ?? defaultLimit
        guard (1...maxLimit).contains(limit) else {
            throw ResponseError.invalidParams("limit must be between 1 and \(maxLimit)", field: "limit")
        }
        return limit
    }

    /// A name filter: no stored event has a longer name (see `EventValidation`), so a longer one is a
    /// mistake to report, not a filter that matches nothing.
    static func name(_ name: String?) throws -> String? {
        guard let name else { return nil }
        guard name.count <= EventValidation.maxNameLength else {
            throw ResponseError.invalidParams(
                "name must be at most \(EventValidation.maxNameLength) characters", field: "name")
        }
        return name
    }

    static func cursor(_ token: String?) throws -> EventCursor? {
        guard let token else { return nil }
        guard let cursor = EventCursor(token: token) else {
            throw ResponseError.invalidParams("cursor must be a nextCursor from an earlier page", field: "cursor")
        }
        return cursor
    }

    /// An ISO 8601 timestamp filter (`since`, `until`) in milliseconds.
    static func timestamp(_ text: String?, field: String) throws -> Int64? {
        guard let text else { return nil }
        guard let millis = EventTime.parse(text) else {
            throw ResponseError.invalidParams(
                "\(field) must be an ISO 8601 timestamp like \"2026-11-30T08:00:00.000Z\"", field: field)
        }
        return millis
    }
}
