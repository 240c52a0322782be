import JSONRPC
import MovieCore

/// `movies.details`: everything the details screen shows about one movie.
public struct MoviesDetails: MovieMethod {
    public static let name = "movies.details"

    public struct Params: Decodable, Sendable {
        public var movieId: Int
        public var language: String?
        public var posterSize: String?
        public var backdropSize: String?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: Encodable, Sendable {
        public var movie: MovieSummaryWire
        public var tagline: String
        public var runtime: Int?
        public var status: String
        public var genres: [Genre]
        public var homepage: String
        public var imdbId: String?
        public var budget: Int
        public var revenue: Int
        public var spokenLanguages: [String]
        public var productionCompanies: [String]
        public var source: String
        public var fetchedAt: String
        public var stale: Bool

        enum CodingKeys: String, CodingKey {
            case tagline, runtime, status, genres, homepage, imdbId, budget, revenue, spokenLanguages
            case productionCompanies, source, fetchedAt, stale
        }

        /// The summary's members and the details' members side by side in one object.
        public func encode(to encoder: any Encoder) throws {
            try movie.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tagline, forKey: .tagline)
            try container.encode(runtime, forKey: .runtime)
            try container.encode(status, forKey: .status)
            try container.encode(genres, forKey: .genres)
            try container.encode(homepage, forKey: .homepage)
            try container.encode(imdbId, forKey: .imdbId)
            try container.encode(budget, forKey: .budget)
            try container.encode(revenue, forKey: .revenue)
            try container.encode(spokenLanguages, forKey: .spokenLanguages)
            try container.encode(productionCompanies, forKey: .productionCompanies)
            try container.encode(source, forKey: .source)
            try container.encode(fetchedAt, forKey: .fetchedAt)
            try container.encode(stale, forKey: .stale)
        }
    }

    public static func handle(_ params: Params, server: ServerContext, request: RequestContext) async throws -> Result {
        let movieID = try CatalogParams.positiveID(params.movieId, field: "movieId")
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        let sourced = try await server.services.repository.details(
            .details(movieID: movieID, language: try CatalogParams.language(params.language)),
            policy: params.cachePolicy ?? .networkFirst)
        await server.services.record(.movieViewed(movieID: movieID))
        let details = sourced.value
        return Result(
            movie: MovieSummaryWire(details.summary, sizes: sizes), tagline: details.tagline, runtime: details.runtime,
            status: details.status, genres: details.genres, homepage: details.homepage, imdbId: details.imdbId,
            budget: details.budget, revenue: details.revenue, spokenLanguages: details.spokenLanguages,
            productionCompanies: details.productionCompanies, source: sourced.source.rawValue,
            fetchedAt: Timestamp.string(sourced.fetchedAt), stale: sourced.stale)
    }
}
