import JSONRPC
import MovieCore

/// `genres.list`: every movie genre, e.g. 28 Action.
public struct GenresList: MovieMethod {
    public static let name = "genres.list"

    public struct Params: Decodable, Sendable {
        public var language: String?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: WireEncodable, Sendable {
        public var sourced: Sourced<[Genre]>

        public func write(to writer: inout JSONWriter) {
            writer.object { writer in
                writer.key("genres")
                writer.genres(sourced.value)
                writer.provenance(sourced)
            }
        }
    }

    public static func handle(_ params: Params, server: ServerContext, request: RequestContext) async throws -> Result {
        let language = try CatalogParams.language(params.language)
        let sourced = try await server.services.repository.genres(
            language: language, policy: params.cachePolicy ?? .networkFirst)
        await server.services.record(.genresOpened)
        return Result(sourced: sourced)
    }
}
