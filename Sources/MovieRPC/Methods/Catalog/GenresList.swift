import JSONRPC
import MovieCore

/// `genres.list`: every movie genre, e.g. 28 Action.
public struct GenresList: MovieMethod {
    public static let name = "genres.list"

    public struct Params: Decodable, Sendable {
        public var language: String?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: Encodable, Sendable {
        public var genres: [Genre]
        public var source: String
        public var fetchedAt: String
        public var stale: Bool
    }

    public static func handle(_ params: Params, server: ServerContext, request: RequestContext) async throws -> Result {
        let language = try CatalogParams.language(params.language)
        let sourced = try await server.services.repository.genres(
            language: language, policy: params.cachePolicy ?? .networkFirst)
        await server.services.record(.genresOpened)
        return Result(
            genres: sourced.value, source: sourced.source.rawValue, fetchedAt: Timestamp.string(sourced.fetchedAt),
            stale: sourced.stale)
    }
}
