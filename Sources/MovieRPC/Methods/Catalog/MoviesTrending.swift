import JSONRPC
import MovieCore

/// `movies.trending`: what is trending today or this week (TMDB `/trending/movie/{window}`).
public struct MoviesTrending: MovieMethod {
    public static let name = "movies.trending"

    public struct Params: Decodable, Sendable {
        public var window: TrendingWindow?
        public var page: Int?
        public var language: String?
        public var posterSize: String?
        public var backdropSize: String?
        public var cachePolicy: CachePolicy?
    }

    public typealias Result = MoviePageResult

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let catalogRequest = CatalogRequest.trending(
            window: params.window ?? .day, page: try CatalogParams.page(params.page),
            language: try CatalogParams.language(params.language))
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        return try await server.moviePage(catalogRequest, policy: params.cachePolicy, sizes: sizes)
    }
}
