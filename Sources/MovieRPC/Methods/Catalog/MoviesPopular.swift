import JSONRPC
import MovieCore

/// `movies.popular`: a page of popular movies.
public struct MoviesPopular: MovieMethod {
    public static let name = "movies.popular"
    public typealias Params = MovieListParams
    public typealias Result = MoviePageResult

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let page = try CatalogParams.page(params.page)
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        let catalogRequest = CatalogRequest.popular(
            page: page, language: try CatalogParams.language(params.language),
            region: try CatalogParams.region(params.region))
        let result = try await server.moviePage(catalogRequest, policy: params.cachePolicy, sizes: sizes)
        await server.services.record(.popularOpened(page: page))
        return result
    }
}
