import JSONRPC
import MovieCore

/// `movies.byGenre`: a page of one genre's movies, most popular first.
public struct MoviesByGenre: MovieMethod {
    public static let name = "movies.byGenre"

    public struct Params: Decodable, Sendable {
        public var genreId: Int
        public var page: Int?
        public var language: String?
        public var region: String?
        public var posterSize: String?
        public var backdropSize: String?
        public var cachePolicy: CachePolicy?
    }

    public typealias Result = MoviePageResult

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let genreID = try CatalogParams.positiveID(params.genreId, field: "genreId")
        let page = try CatalogParams.page(params.page)
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        let catalogRequest = CatalogRequest.byGenre(
            genreID: genreID, page: page, language: try CatalogParams.language(params.language),
            region: try CatalogParams.region(params.region))
        let result = try await server.moviePage(catalogRequest, policy: params.cachePolicy, sizes: sizes)
        await server.services.record(.genreOpened(genreID: genreID))
        return result
    }
}
