import JSONRPC
import MovieCore

/// `movies.watchProviders`: where a movie streams, rents, sells or airs free in one country (JustWatch's
/// data, through TMDB). TMDB answers every country at once; that one answer is stored.
public struct MoviesWatchProviders: MovieMethod {
    public static let name = "movies.watchProviders"

    public struct Params: Decodable, Sendable {
        public var movieId: Int
        public var region: String
        public var cachePolicy: CachePolicy?
    }

    public struct Result: WireEncodable, Sendable {
        var movieID: Int
        var region: String
        var sourced: Sourced<[String: WatchOptions]>

        public func write(to writer: inout JSONWriter) {
            writer.object { writer in
                writer.member("movieId", movieID)
                writer.member("region", region)
                writer.watchOptionMembers(sourced.value[region] ?? .none)
                writer.provenance(sourced)
            }
        }
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let movieID = try CatalogParams.positiveID(params.movieId, field: "movieId")
        let region = try CatalogParams.country(params.region, field: "region") ?? params.region
        let sourced = try await server.services.repository.watchProviders(
            movieID, policy: params.cachePolicy ?? .networkFirst)
        return Result(movieID: movieID, region: region, sourced: sourced)
    }
}
