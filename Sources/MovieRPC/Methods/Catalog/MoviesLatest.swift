import JSONRPC
import MovieCore

/// `movies.latest`: the single newest TMDB record, without any image fields (such records are usually
/// near-empty; the app shows them without a picture).
public struct MoviesLatest: MovieMethod {
    public static let name = "movies.latest"

    public struct Params: Decodable, Sendable {
        public var language: String?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: Encodable, Sendable {
        public var id: Int
        public var title: String
        public var originalTitle: String
        public var overview: String
        public var releaseDate: String
        public var genreIds: [Int]
        public var voteAverage: Double
        public var voteCount: Int
        public var popularity: Double
        public var adult: Bool
        public var originalLanguage: String
        public var runtime: Int?
        public var status: String
        public var source: String
        public var fetchedAt: String
        public var stale: Bool

        enum CodingKeys: String, CodingKey {
            case id, title, originalTitle, overview, releaseDate, genreIds, voteAverage, voteCount, popularity
            case adult, originalLanguage, runtime, status, source, fetchedAt, stale
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(originalTitle, forKey: .originalTitle)
            try container.encode(overview, forKey: .overview)
            try container.encode(releaseDate, forKey: .releaseDate)
            try container.encode(genreIds, forKey: .genreIds)
            try container.encode(voteAverage, forKey: .voteAverage)
            try container.encode(voteCount, forKey: .voteCount)
            try container.encode(popularity, forKey: .popularity)
            try container.encode(adult, forKey: .adult)
            try container.encode(originalLanguage, forKey: .originalLanguage)
            try container.encode(runtime, forKey: .runtime)
            try container.encode(status, forKey: .status)
            try container.encode(source, forKey: .source)
            try container.encode(fetchedAt, forKey: .fetchedAt)
            try container.encode(stale, forKey: .stale)
        }
    }

    public static func handle(_ params: Params, server: ServerContext, request: RequestContext) async throws -> Result {
        let sourced = try await server.services.repository.details(
            .latest(language: try CatalogParams.language(params.language)), policy: params.cachePolicy ?? .networkFirst)
        await server.services.record(.latestOpened)
        let movie = sourced.value.summary
        return Result(
            id: movie.id, title: movie.title, originalTitle: movie.originalTitle, overview: movie.overview,
            releaseDate: movie.releaseDate, genreIds: movie.genreIds, voteAverage: movie.voteAverage,
            voteCount: movie.voteCount, popularity: movie.popularity, adult: movie.adult,
            originalLanguage: movie.originalLanguage, runtime: sourced.value.runtime, status: sourced.value.status,
            source: sourced.source.rawValue, fetchedAt: Timestamp.string(sourced.fetchedAt), stale: sourced.stale)
    }
}
