import JSONRPC
import MovieCore

/// `movies.topRated`, `movies.nowPlaying` and `movies.upcoming`: TMDB's fixed lists, one method each.
/// The last two carry the release dates they cover as `dates`.
protocol MovieListMethod: MovieMethod where Params == MovieListParams, Result == MoviePageResult {
    static var list: MovieList { get }
}

extension MovieListMethod {
    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let catalogRequest = CatalogRequest.list(
            list, page: try CatalogParams.page(params.page), language: try CatalogParams.language(params.language),
            region: try CatalogParams.region(params.region))
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        return try await server.moviePage(catalogRequest, policy: params.cachePolicy, sizes: sizes)
    }
}

/// `movies.topRated`: the best rated movies (TMDB `/movie/top_rated`).
public struct MoviesTopRated: MovieListMethod {
    public static let name = "movies.topRated"
    static let list = MovieList.topRated
}

/// `movies.nowPlaying`: movies in theatres (TMDB `/movie/now_playing`), with `dates`.
public struct MoviesNowPlaying: MovieListMethod {
    public static let name = "movies.nowPlaying"
    static let list = MovieList.nowPlaying
}

/// `movies.upcoming`: movies soon in theatres (TMDB `/movie/upcoming`), with `dates`.
public struct MoviesUpcoming: MovieListMethod {
    public static let name = "movies.upcoming"
    static let list = MovieList.upcoming
}
