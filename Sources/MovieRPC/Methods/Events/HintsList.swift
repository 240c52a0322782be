import JSONRPC
import MovieCore

/// `hints.list`: suggestions for features the current user (or the anonymous user, when nobody is
/// logged in) has never used, derived from their stored events by the rules of `HintRules`:
/// no `popular.opened` → `movies.popular`; no `genre.opened` → `movies.byGenre`; no `movie.viewed` →
/// `movies.details`; no `favorite.added` → `favorites.add`; no `catalog.synced` → `catalog.sync`.
public struct HintsList: MovieMethod {
    public static let name = "hints.list"
    public typealias Params = NoParams

    public struct HintWire: Encodable, Sendable {
        public var id: String
        public var feature: String
        public var message: String
        public var method: String
    }

    public struct Result: Encodable, Sendable {
        public var hints: [HintWire]
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let hints = try await server.services.events.hints(userID: await server.services.currentUserID())
        return Result(hints: hints.map {
            HintWire(id: $0.id, feature: $0.feature, message: $0.message, method: $0.method)
        })
    }
}
