import JSONRPC
import MovieCore

/// `events.add`: stores one event (for testers), for the current user, and returns it. Written through:
/// the event is committed before the answer is sent; concurrent adds share a transaction (group commit,
/// see `EventLog`).
public struct EventsAdd: MovieMethod {
    public static let name = "events.add"

    public struct Params: Decodable, Sendable {
        public var name: String
        /// ISO 8601; default now. Stored to the millisecond (rounded down).
        public var timestamp: String?
        public var params: [String: EventValue]?
    }

    public typealias Result = EventWire

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let eventParams = params.params ?? [:]
        var millis = EventTime.now()
        if let text = params.timestamp {
            guard let parsed = EventTime.parse(text) else {
                let problem = FieldProblem(
                    field: "timestamp", problem: "must be an ISO 8601 timestamp like \"2026-11-30T08:00:00.000Z\"")
                throw MovieError.validationFailed(
                    [problem] + EventValidation.problems(name: params.name, params: eventParams))
            }
            millis = parsed
        }
        let event = try await server.services.events.add(
            name: params.name, timestampMillis: millis, params: eventParams,
            userID: await server.services.currentUserIDForEvents())
        return try EventWire(event)
    }
}
