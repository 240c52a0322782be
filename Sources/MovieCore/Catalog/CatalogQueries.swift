#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// A title search, with TMDB's filters. `query` is trimmed and non-empty (checked by the caller).
public struct MovieSearch: Hashable, Sendable {
    public var query: String
    public var page: Int
    public var year: Int?
    public var primaryReleaseYear: Int?
    public var language: String?
    public var region: String?
    public var includeAdult: Bool

    public init(
        query: String, page: Int = 1, year: Int? = nil, primaryReleaseYear: Int? = nil, language: String? = nil,
        region: String? = nil, includeAdult: Bool = false
    ) {
        self.query = query
        self.page = page
        self.year = year
        self.primaryReleaseYear = primaryReleaseYear
        self.language = language
        self.region = region
        self.includeAdult = includeAdult
    }
}

/// The period a trending list covers.
public enum TrendingWindow: String, Codable, Sendable, CaseIterable {
    case day, week
}

/// TMDB's fixed movie lists besides popular.
public enum MovieList: String, Sendable, CaseIterable {
    case topRated = "top_rated"
    case nowPlaying = "now_playing"
    case upcoming

    var words: String {
        switch self {
        case .topRated: "top rated movies"
        case .nowPlaying: "movies now playing"
        case .upcoming: "upcoming movies"
        }
    }
}

/// Movies related to one movie: TMDB's recommendations (what viewers also liked) or similar (by genres
/// and keywords).
public enum RelatedMovies: String, Sendable, CaseIterable {
    case recommendations, similar
}

/// `movies.discover`'s filters, checked: pairs are complete and ranges ordered (see ``problems``).
public struct DiscoverFilter: Hashable, Sendable {
    public enum GenreMatch: String, Codable, Sendable { case all, any }

    public var genreIDs: [Int] = []
    public var genreMatch: GenreMatch = .all
    public var withoutGenreIDs: [Int] = []
    public var year: Int?
    /// `YYYY-MM-DD`, inclusive.
    public var releasedFrom: String?
    public var releasedTo: String?
    public var minRating: Double?
    public var minVotes: Int?
    public var minRuntime: Int?
    public var maxRuntime: Int?
    public var originalLanguage: String?
    public var sortBy: String = "popularity.desc"
    public var watchProviderIDs: [Int] = []
    public var watchRegion: String?
    public var certification: String?
    public var certificationCountry: String?

    public init() {}

    /// What TMDB would silently ignore and make a filter look broken: a half of a pair, a reversed range.
    public var problems: [FieldProblem] {
        var problems: [FieldProblem] = []
        if !watchProviderIDs.isEmpty, watchRegion == nil {
            problems.append(FieldProblem(field: "watchRegion", problem: "is required with watchProviderIds"))
        }
        if certification != nil, certificationCountry == nil {
            problems.append(FieldProblem(field: "certificationCountry", problem: "is required with certification"))
        }
        if let from = releasedFrom, let to = releasedTo, from > to {
            problems.append(FieldProblem(field: "releasedFrom", problem: "must not be after releasedTo"))
        }
        if let low = minRuntime, let high = maxRuntime, low > high {
            problems.append(FieldProblem(field: "minRuntime", problem: "must not be greater than maxRuntime"))
        }
        return problems
    }

    /// Every filter, in a fixed order, for the cache key.
    var cacheKey: String {
        func ids(_ list: [Int]) -> String { list.map(String.init).joined(separator: ",") }
        let parts: [String] = [
            "genres=\(ids(genreIDs))", "match=\(genreMatch.rawValue)", "without=\(ids(withoutGenreIDs))",
            "year=\(year.map(String.init) ?? "")", "from=\(releasedFrom ?? "")", "to=\(releasedTo ?? "")",
            "rating=\(minRating.map { String($0) } ?? "")", "votes=\(minVotes.map(String.init) ?? "")",
            "runtime=\(minRuntime.map(String.init) ?? "")-\(maxRuntime.map(String.init) ?? "")",
            "lang=\(originalLanguage ?? "")", "sort=\(sortBy)", "providers=\(ids(watchProviderIDs))",
            "watchRegion=\(watchRegion ?? "")", "cert=\(certification.map(Self.escaped) ?? "")",
            "certCountry=\(certificationCountry ?? "")",
        ]
        return parts.joined(separator: "&")
    }

    /// Certifications are free text ("PG-13", "FSK 16"): `&` and `=` must not read as key syntax.
    private static func escaped(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: PercentEncoding.isASCIIAlphanumeric)
    }
}
