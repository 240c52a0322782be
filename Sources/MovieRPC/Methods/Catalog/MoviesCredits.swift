import JSONRPC
import MovieCore

/// `movies.credits`: who is in a movie (cast in billing order) and who made it.
public struct MoviesCredits: MovieMethod {
    public static let name = "movies.credits"

    public struct Params: Decodable, Sendable {
        public var movieId: Int
        public var cachePolicy: CachePolicy?
    }

    public struct Result: WireEncodable, Sendable {
        var movieID: Int
        var sourced: Sourced<MovieCredits>

        public func write(to writer: inout JSONWriter) {
            writer.object { writer in
                writer.member("movieId", movieID)
                writer.credits(sourced.value)
                writer.provenance(sourced)
            }
        }
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let movieID = try CatalogParams.positiveID(params.movieId, field: "movieId")
        let sourced = try await server.services.repository.credits(movieID, policy: params.cachePolicy ?? .networkFirst)
        return Result(movieID: movieID, sourced: sourced)
    }
}
