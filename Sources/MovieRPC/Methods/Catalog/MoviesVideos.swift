import JSONRPC
import MovieCore

/// `movies.videos`: trailers, teasers and clips, trailers first, with a watch URL for YouTube and Vimeo.
public struct MoviesVideos: MovieMethod {
    public static let name = "movies.videos"

    public struct Params: Decodable, Sendable {
        public var movieId: Int
        public var language: String?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: WireEncodable, Sendable {
        var movieID: Int
        var sourced: Sourced<[Video]>

        public func write(to writer: inout JSONWriter) {
            writer.object { writer in
                writer.member("movieId", movieID)
                writer.key("videos")
                writer.videos(sourced.value)
                writer.provenance(sourced)
            }
        }
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let movieID = try CatalogParams.positiveID(params.movieId, field: "movieId")
        let catalogRequest = CatalogRequest.videos(
            movieID: movieID, language: try CatalogParams.language(params.language))
        let sourced = try await server.services.repository.videos(
            catalogRequest, policy: params.cachePolicy ?? .networkFirst)
        return Result(movieID: movieID, sourced: sourced)
    }
}
