import JSONRPC
import MovieCore

/// `movies.search`: movies by title (TMDB `/search/movie`). Offline, or with `cacheOnly`, the local index
/// of every stored movie answers instead, with `complete: false`.
public struct MoviesSearch: MovieMethod {
    public static let name = "movies.search"

    public struct Params: Decodable, Sendable {
        public var query: String
        public var page: Int?
        public var year: Int?
        public var primaryReleaseYear: Int?
        public var language: String?
        public var region: String?
        public var includeAdult: Bool?
        public var posterSize: String?
        public var backdropSize: String?
        public var cachePolicy: CachePolicy?
    }

    public typealias Result = MoviePageResult

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let search = MovieSearch(
            query: try CatalogParams.query(params.query), page: try CatalogParams.page(params.page),
            year: try CatalogParams.year(params.year, field: "year"),
            primaryReleaseYear: try CatalogParams.year(params.primaryReleaseYear, field: "primaryReleaseYear"),
            language: try CatalogParams.language(params.language), region: try CatalogParams.region(params.region),
            includeAdult: params.includeAdult ?? false)
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        var sourced = try await server.services.repository.search(search, policy: params.cachePolicy ?? .networkFirst)
        if !search.includeAdult {
            // TMDB leaves adult titles out when asked; the local index and stale copies are held to it too.
            sourced.value.results.removeAll(where: \.adult)
        }
        // Kept per stored copy like the other pages: the adult titles left out depend on the request alone.
        return MoviePageResult(
            sourced, sizes: sizes, reportsCompleteness: true, answers: server.encodedAnswers, request: .search(search))
    }
}
