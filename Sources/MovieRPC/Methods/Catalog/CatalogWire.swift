import Foundation
import JSONRPC
import MovieCore
import TMDB

/// A movie as lists send it: the summary fields plus image URLs built for the requested sizes.
public struct MovieSummaryWire: Encodable, Sendable, Equatable {
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
    public var posterPath: String?
    public var posterUrl: String?
    public var backdropPath: String?
    public var backdropUrl: String?

    public init(_ movie: MovieSummary, sizes: ImageSizes) {
        id = movie.id
        title = movie.title
        originalTitle = movie.originalTitle
        overview = movie.overview
        releaseDate = movie.releaseDate
        genreIds = movie.genreIds
        voteAverage = movie.voteAverage
        voteCount = movie.voteCount
        popularity = movie.popularity
        adult = movie.adult
        originalLanguage = movie.originalLanguage
        posterPath = movie.posterPath
        posterUrl = TMDBClient.imageURL(path: movie.posterPath, size: sizes.poster)
        backdropPath = movie.backdropPath
        backdropUrl = TMDBClient.imageURL(path: movie.backdropPath, size: sizes.backdrop)
    }

    // Optional members are sent as null rather than left out: clients check one shape.
    enum CodingKeys: String, CodingKey {
        case id, title, originalTitle, overview, releaseDate, genreIds, voteAverage, voteCount, popularity, adult
        case originalLanguage, posterPath, posterUrl, backdropPath, backdropUrl
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
        try container.encode(posterPath, forKey: .posterPath)
        try container.encode(posterUrl, forKey: .posterUrl)
        try container.encode(backdropPath, forKey: .backdropPath)
        try container.encode(backdropUrl, forKey: .backdropUrl)
    }
}

/// Poster and backdrop sizes for URLs, checked against TMDB's lists.
public struct ImageSizes: Sendable, Equatable {
    public var poster: String
    public var backdrop: String

    public static let `default` = ImageSizes(poster: "w500", backdrop: "w780")

    public init(poster: String, backdrop: String) {
        self.poster = poster
        self.backdrop = backdrop
    }

    static func validated(poster: String?, backdrop: String?) throws -> ImageSizes {
        let poster = poster ?? Self.default.poster
        let backdrop = backdrop ?? Self.default.backdrop
        guard TMDBClient.posterSizes.contains(poster) else {
            throw ResponseError.invalidParams(
                "posterSize must be one of \(TMDBClient.posterSizes.joined(separator: ", "))", field: "posterSize")
        }
        guard TMDBClient.backdropSizes.contains(backdrop) else {
            throw ResponseError.invalidParams(
                "backdropSize must be one of \(TMDBClient.backdropSizes.joined(separator: ", "))", field: "backdropSize")
        }
        return ImageSizes(poster: poster, backdrop: backdrop)
    }
}

/// Checks shared by the catalog methods' params; each failure is -32602 naming the field.
enum CatalogParams {
    static func page(_ page: Int?) throws -> Int {
        let page = page ?? 1
        guard (1...MoviePage.maxPage).contains(page) else {
            throw ResponseError.invalidParams("page must be between 1 and \(MoviePage.maxPage)", field: "page")
        }
        return page
    }

    /// ISO 639-1 language, optionally with an ISO 3166-1 region: `en`, `de-DE`, `pt-BR`.
    static func language(_ language: String?) throws -> String? {
        guard let language else { return nil }
        let parts = language.split(separator: "-", omittingEmptySubsequences: false)
        let valid = language.utf8.count <= 5 && (1...2).contains(parts.count)
            && parts[0].count == 2 && parts[0].allSatisfy { $0.isASCII && $0.isLowercase }
            && (parts.count == 1 || (parts[1].count == 2 && parts[1].allSatisfy { $0.isASCII && $0.isUppercase }))
        guard valid else {
            throw ResponseError.invalidParams(
                "language must look like \"en\" or \"de-DE\" (ISO 639-1, optionally -ISO 3166-1)", field: "language")
        }
        return language
    }

    /// ISO 3166-1 alpha-2 region, uppercase: `US`.
    static func region(_ region: String?) throws -> String? {
        guard let region else { return nil }
        guard region.count == 2, region.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw ResponseError.invalidParams("region must be an uppercase ISO 3166-1 code like \"US\"", field: "region")
        }
        return region
    }

    static func positiveID(_ id: Int, field: String) throws -> Int {
        guard id > 0 else { throw ResponseError.invalidParams("\(field) must be a positive integer", field: field) }
        return id
    }
}

/// A page of movies with where it came from.
public struct MoviePageResult: Encodable, Sendable {
    public var page: Int
    public var totalPages: Int
    public var totalResults: Int
    public var results: [MovieSummaryWire]
    public var source: String
    public var fetchedAt: String
    public var stale: Bool

    init(_ sourced: Sourced<MoviePage>, sizes: ImageSizes) {
        page = sourced.value.page
        totalPages = sourced.value.totalPages
        totalResults = sourced.value.totalResults
        results = sourced.value.results.map { MovieSummaryWire($0, sizes: sizes) }
        source = sourced.source.rawValue
        fetchedAt = Timestamp.string(sourced.fetchedAt)
        stale = sourced.stale
    }
}

/// Params shared by the two list methods.
public struct MovieListParams: Decodable, Sendable {
    public var page: Int?
    public var language: String?
    public var region: String?
    public var posterSize: String?
    public var backdropSize: String?
    public var cachePolicy: CachePolicy?
}
