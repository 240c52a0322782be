import JSONRPC
import MovieCore

/// `events.delete`: deletes stored events by id. Ids that are not stored, or are another user's (see
/// `EventViewer`), are listed in `notFound` rather than failing the call; each id appears once, in
/// request order.
public struct EventsDelete: MovieMethod {
    public static let name = "events.delete"
    static let maxIDs = 1000

    public struct Params: Decodable, Sendable {
        public var ids: [Int64]
    }

    public struct Result: Encodable, Sendable {
        public var deleted: [Int64]
        public var notFound: [Int64]
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        guard (1...maxIDs).contains(params.ids.count) else {
            throw ResponseError.invalidParams("ids must hold 1 to \(maxIDs) event ids", field: "ids")
        }
        let deletion = try await server.services.events.delete(
            ids: params.ids, viewer: await server.services.eventViewer())
        return Result(deleted: deletion.deleted, notFound: deletion.notFound)
    }
}
