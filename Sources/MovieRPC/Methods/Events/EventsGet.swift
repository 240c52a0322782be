import JSONRPC
import MovieCore

/// `events.get`: one stored event with all its parameters; another user's event is not found.
public struct EventsGet: MovieMethod {
    public static let name = "events.get"

    public struct Params: Decodable, Sendable {
        public var id: Int64
    }

    public typealias Result = EventWire

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        try EventWire(try await server.services.events.event(id: params.id, viewer: await server.services.eventViewer()))
    }
}
