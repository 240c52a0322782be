import JSONRPC
import MovieCore

/// `events.stats`: how many of the visible events (see `EventViewer`) of each name are stored (or were
/// stored since `since`), most frequent first.
public struct EventsStats: MovieMethod {
    public static let name = "events.stats"

    public struct Params: Decodable, Sendable {
        public var since: String?
    }

    public struct Count: Encodable, Sendable {
        public var name: String
        public var count: Int
    }

    public struct Result: Encodable, Sendable {
        public var counts: [Count]
        public var total: Int
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let since = try EventParams.timestamp(params.since, field: "since")
        let stats = try await server.services.events.stats(
            sinceMillis: since, viewer: await server.services.eventViewer())
        return Result(counts: stats.counts.map { Count(name: $0.name, count: $0.count) }, total: stats.total)
    }
}
