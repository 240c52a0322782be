import JSONRPC
import MovieCore

/// An event as the events methods send it: `userId` is null for the anonymous user, `timestamp` is
/// ISO 8601 UTC with milliseconds.
public struct EventWire: Encodable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var timestamp: String
    public var userId: String?
    public var params: [String: EventValue]

    public init(_ event: StoredEvent) {
        id = event.id
        name = event.name
        timestamp = EventTime.string(millis: event.timestampMillis)
        userId = event.userID
        params = event.params
    }

    enum CodingKeys: String, CodingKey {
        case id, name, timestamp, userId, params
    }

    // `userId` is sent as null rather than left out: clients check one shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(userId, forKey: .userId)
        try container.encode(params, forKey: .params)
    }
}

/// A page of events, newest first; `nextCursor` is null at the end.
public struct EventPageResult: Encodable, Sendable {
    public var events: [EventWire]
    public var nextCursor: String?

    init(_ page: EventPage) {
        events = page.events.map(EventWire.init)
        nextCursor = page.nextCursor?.token
    }

    enum CodingKeys: String, CodingKey {
        case events, nextCursor
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(events, forKey: .events)
        try container.encode(nextCursor, forKey: .nextCursor)
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
