#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A movie genre, e.g. 28 Action.
public struct Genre: Codable, Sendable, Hashable {
    public var id: Int
    public var name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// A movie as lists show it. Image fields are TMDB paths (`/abc.jpg`); URLs are built per request size.
public struct MovieSummary: Codable, Sendable, Hashable {
    public var id: Int
    public var title: String
    public var originalTitle: String
    public var overview: String
    /// `YYYY-MM-DD`, or "" when unknown.
    public var releaseDate: String
    public var genreIds: [Int]
    public var voteAverage: Double
    public var voteCount: Int
    public var popularity: Double
    public var adult: Bool
    public var originalLanguage: String
    public var posterPath: String?
    public var backdropPath: String?

    public init(
        id: Int, title: String, originalTitle: String, overview: String, releaseDate: String, genreIds: [Int],
        voteAverage: Double, voteCount: Int, popularity: Double, adult: Bool, originalLanguage: String,
        posterPath: String?, backdropPath: String?
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.overview = overview
        self.releaseDate = releaseDate
        self.genreIds = genreIds
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.popularity = popularity
        self.adult = adult
        self.originalLanguage = originalLanguage
        self.posterPath = posterPath
        self.backdropPath = backdropPath
    }
}

/// One page of a movie list. `totalPages` is clamped to 500, the last page TMDB serves.
public struct MoviePage: Codable, Sendable, Hashable {
    public static let maxPage = 500

    public var page: Int
    public var totalPages: Int
    public var totalResults: Int
    public var results: [MovieSummary]
    /// Now playing and upcoming only: the release dates the list covers.
    public var dates: DateRange?

    public init(page: Int, totalPages: Int, totalResults: Int, results: [MovieSummary], dates: DateRange? = nil) {
        self.page = page
        self.totalPages = min(totalPages, Self.maxPage)
        self.totalResults = totalResults
        self.results = results
        self.dates = dates
    }
}

/// Everything the details screen shows.
public struct MovieDetails: Codable, Sendable, Hashable {
    public var summary: MovieSummary
    public var tagline: String
    /// Minutes; nil when unknown.
    public var runtime: Int?
    public var status: String
    public var genres: [Genre]
    public var homepage: String
    public var imdbId: String?
    public var budget: Int
    public var revenue: Int
    /// English names, e.g. ["English", "French"].
    public var spokenLanguages: [String]
    public var productionCompanies: [String]

    // The parts `movies.details` can include; nil when not fetched (or, in the demo, not there).
    public var credits: MovieCredits?
    public var videos: [Video]?
    /// By ISO 3166-1 country.
    public var watchProviders: [String: WatchOptions]?
    /// By ISO 3166-1 country.
    public var releaseDates: [String: [Release]]?
    public var externalIds: ExternalIDs?

    public init(
        summary: MovieSummary, tagline: String, runtime: Int?, status: String, genres: [Genre], homepage: String,
        imdbId: String?, budget: Int, revenue: Int, spokenLanguages: [String], productionCompanies: [String]
    ) {
        self.summary = summary
        self.tagline = tagline
        self.runtime = runtime
        self.status = status
        self.genres = genres
        self.homepage = homepage
        self.imdbId = imdbId
        self.budget = budget
        self.revenue = revenue
        self.spokenLanguages = spokenLanguages
        self.productionCompanies = productionCompanies
    }
}

/// Where an answer came from.
public enum CatalogSourceKind: String, Codable, Sendable {
    /// Fetched from TMDB for this request.
    case network
    /// The local database's copy (network failed, or the cache policy asked for it).
    case cache
    /// The embedded demo catalog (no TMDB credential configured).
    case demo
}

/// A value with its provenance: `source`, when it was fetched, and whether it is older than its TTL.
public struct Sourced<Value: Sendable>: Sendable {
    public var value: Value
    public var source: CatalogSourceKind
    public var fetchedAt: Date
    public var stale: Bool
    /// False when the answer may lack what the catalog has: search over the local index, offline.
    public var complete: Bool

    public init(value: Value, source: CatalogSourceKind, fetchedAt: Date, stale: Bool, complete: Bool = true) {
        self.value = value
        self.source = source
        self.fetchedAt = fetchedAt
        self.stale = stale
        self.complete = complete
    }
}

/// How a request may use the network and the local cache.
public enum CachePolicy: String, Codable, Sendable, CaseIterable {
    /// Ask TMDB; on failure answer from the cache (the default).
    case networkFirst
    /// Use a cached copy younger than its TTL; otherwise as networkFirst.
    case cacheFirst
    /// Only the cache; -32030 when nothing is cached.
    case cacheOnly
    /// Only TMDB; failures are errors even when a copy is cached.
    case networkOnly
}
