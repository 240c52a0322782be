#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// TMDB's `/discover/movie` filters, in TMDB's terms. `nil` leaves a filter out.
public struct DiscoverMovieQuery: Sendable, Hashable {
    public var genreIDs: [Int] = []
    /// `with_genres` joined by `,` (all of them) or `|` (any of them).
    public var allGenres = true
    public var withoutGenreIDs: [Int] = []
    public var primaryReleaseYear: Int?
    /// `YYYY-MM-DD`, inclusive.
    public var releasedFrom: String?
    public var releasedTo: String?
    public var minRating: Double?
    public var minVotes: Int?
    public var minRuntime: Int?
    public var maxRuntime: Int?
    public var originalLanguage: String?
    /// One of ``DiscoverMovieQuery/sortOrders``.
    public var sortBy = "popularity.desc"
    public var watchProviderIDs: [Int] = []
    public var watchRegion: String?
    public var certification: String?
    public var certificationCountry: String?

    public init() {}

    /// The `sort_by` values TMDB documents for `/discover/movie`.
    public static let sortOrders: [String] = [
        "original_title.asc", "original_title.desc", "popularity.asc", "popularity.desc", "revenue.asc",
        "revenue.desc", "primary_release_date.asc", "primary_release_date.desc", "title.asc", "title.desc",
        "vote_average.asc", "vote_average.desc", "vote_count.asc", "vote_count.desc",
    ]

    var queryPairs: [(String, String?)] {
        func joined(_ ids: [Int], _ separator: String) -> String? {
            ids.isEmpty ? nil : ids.map(String.init).joined(separator: separator)
        }
        return [
            ("with_genres", joined(genreIDs, allGenres ? "," : "|")),
            ("without_genres", joined(withoutGenreIDs, ",")),
            ("primary_release_year", primaryReleaseYear.map(String.init)),
            ("primary_release_date.gte", releasedFrom),
            ("primary_release_date.lte", releasedTo),
            ("vote_average.gte", minRating.map { String($0) }),
            ("vote_count.gte", minVotes.map(String.init)),
            ("with_runtime.gte", minRuntime.map(String.init)),
            ("with_runtime.lte", maxRuntime.map(String.init)),
            ("with_original_language", originalLanguage),
            ("sort_by", sortBy),
            ("with_watch_providers", joined(watchProviderIDs, "|")),
            ("watch_region", watchRegion),
            ("certification", certification),
            ("certification_country", certificationCountry),
        ]
    }
}

extension Endpoint where Response == TMDBPage<TMDBMovieListItem> {
    /// `GET /search/movie`: movies whose title matches `query`. Adult titles only with `includeAdult`.
    public static func searchMovies(
        query: String, page: Int = 1, year: Int? = nil, primaryReleaseYear: Int? = nil, language: String? = nil,
        region: String? = nil, includeAdult: Bool = false
    ) -> Endpoint {
        Endpoint(path: "/search/movie", queryItems: makeQuery([
            ("query", query), ("include_adult", includeAdult ? "true" : "false"), ("page", String(page)),
            ("year", year.map(String.init)), ("primary_release_year", primaryReleaseYear.map(String.init)),
            ("language", language), ("region", region),
        ]))
    }

    /// `GET /trending/movie/{day|week}`.
    public static func trendingMovies(window: String, page: Int = 1, language: String? = nil) -> Endpoint {
        Endpoint(
            path: "/trending/movie/\(window)", queryItems: makeQuery([("page", String(page)), ("language", language)]))
    }

    /// `GET /movie/top_rated`, `/movie/now_playing` or `/movie/upcoming` (the last two carry `dates`).
    /// - Parameter list: `top_rated`, `now_playing` or `upcoming`.
    public static func movieList(
        _ list: String, page: Int = 1, language: String? = nil, region: String? = nil
    ) -> Endpoint {
        Endpoint(path: "/movie/\(list)", queryItems: makeQuery([
            ("page", String(page)), ("language", language), ("region", region),
        ]))
    }

    /// `GET /discover/movie` with every filter of `query`.
    public static func discoverMovies(
        _ query: DiscoverMovieQuery, page: Int = 1, language: String? = nil, region: String? = nil
    ) -> Endpoint {
        Endpoint(path: "/discover/movie", queryItems: makeQuery(
            query.queryPairs + [("page", String(page)), ("language", language), ("region", region)]))
    }

    /// `GET /movie/{id}/recommendations` or `/movie/{id}/similar`.
    /// - Parameter kind: `recommendations` or `similar`.
    public static func relatedMovies(
        _ kind: String, movieID: Int, page: Int = 1, language: String? = nil
    ) -> Endpoint {
        Endpoint(
            path: "/movie/\(movieID)/\(kind)", queryItems: makeQuery([("page", String(page)), ("language", language)]))
    }
}

extension Endpoint where Response == TMDBMovieDetails {
    /// TMDB's limit on `append_to_response` parts in one request.
    public static var maxAppendedParts: Int { 20 }

    /// `GET /movie/{id}?append_to_response=a,b`: details and the named sub-resources in one request
    /// (`credits`, `videos`, `watch/providers`, `release_dates`, `external_ids`). At most
    /// ``maxAppendedParts`` parts; `[]` is plain details.
    public static func movieDetails(id: Int, language: String? = nil, appending parts: [String]) -> Endpoint {
        let appended = parts.prefix(maxAppendedParts).joined(separator: ",")
        return Endpoint(path: "/movie/\(id)", queryItems: makeQuery([
            ("language", language), ("append_to_response", appended.isEmpty ? nil : appended),
        ]))
    }
}

extension Endpoint where Response == TMDBCredits {
    /// `GET /movie/{id}/credits`.
    public static func movieCredits(id: Int) -> Endpoint {
        Endpoint(path: "/movie/\(id)/credits")
    }
}

extension Endpoint where Response == TMDBVideoList {
    /// `GET /movie/{id}/videos`.
    public static func movieVideos(id: Int, language: String? = nil) -> Endpoint {
        Endpoint(path: "/movie/\(id)/videos", queryItems: makeQuery([("language", language)]))
    }
}

extension Endpoint where Response == TMDBWatchProviders {
    /// `GET /movie/{id}/watch/providers`: every country at once.
    public static func movieWatchProviders(id: Int) -> Endpoint {
        Endpoint(path: "/movie/\(id)/watch/providers")
    }
}

extension Endpoint where Response == TMDBFindResults {
    /// `GET /find/{imdbId}?external_source=imdb_id`.
    public static func findByIMDbID(_ imdbID: String) -> Endpoint {
        Endpoint(path: "/find/\(imdbID)", queryItems: makeQuery([("external_source", "imdb_id")]))
    }
}

extension Endpoint where Response == TMDBPage<TMDBPersonListItem> {
    /// `GET /search/person`. Adult profiles are left out.
    public static func searchPeople(query: String, page: Int = 1) -> Endpoint {
        Endpoint(path: "/search/person", queryItems: makeQuery([
            ("query", query), ("include_adult", "false"), ("page", String(page)),
        ]))
    }
}

extension Endpoint where Response == TMDBPersonDetails {
    /// `GET /person/{id}?append_to_response=movie_credits`: the person and the filmography in one request.
    public static func personDetails(id: Int, language: String? = nil) -> Endpoint {
        Endpoint(path: "/person/\(id)", queryItems: makeQuery([
            ("language", language), ("append_to_response", "movie_credits"),
        ]))
    }
}
