import JSONRPC
import MovieCore

/// `movies.recommendations` and `movies.similar`: pages of movies related to one movie.
protocol RelatedMoviesMethod: MovieMethod where Params == RelatedMoviesParams, Result == MoviePageResult {
    static var kind: RelatedMovies { get }
}

public struct RelatedMoviesParams: Decodable, Sendable {
    public var movieId: Int
    public var page: Int?
    public var language: String?
    public var posterSize: String?
    public var backdropSize: String?
    public var cachePolicy: CachePolicy?
}

extension RelatedMoviesMethod {
    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let catalogRequest = CatalogRequest.related(
            kind, movieID: try CatalogParams.positiveID(params.movieId, field: "movieId"),
            page: try CatalogParams.page(params.page), language: try CatalogParams.language(params.language))
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        return try await server.moviePage(catalogRequest, policy: params.cachePolicy, sizes: sizes)
    }
}

/// `movies.recommendations`: what viewers of a movie also liked (TMDB `/movie/{id}/recommendations`).
public struct MoviesRecommendations: RelatedMoviesMethod {
    public static let name = "movies.recommendations"
    static let kind = RelatedMovies.recommendations
}

/// `movies.similar`: movies like one movie by genres and keywords (TMDB `/movie/{id}/similar`).
public struct MoviesSimilar: RelatedMoviesMethod {
    public static let name = "movies.similar"
    static let kind = RelatedMovies.similar
}
