#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Builds query items in a fixed order, skipping `nil` values.
func makeQuery(_ pairs: [(String, String?)]) -> [URLQueryItem] {
    pairs.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
}

extension Endpoint where Response == TMDBGenreList {
    /// `GET /genre/movie/list`: the official movie genres, names translated to `language`.
    /// - Parameter language: e.g. `en` or `de-DE`; `nil` leaves TMDB's default.
    public static func movieGenres(language: String? = nil) -> Endpoint {
        Endpoint(path: "/genre/movie/list", queryItems: makeQuery([("language", language)]))
    }
}

extension Endpoint where Response == TMDBPage<TMDBMovieListItem> {
    /// `GET /movie/popular`: movies ordered by popularity, 20 per page.
    /// - Parameters:
    ///   - page: 1-based page; TMDB accepts 1...``TMDBClient/maxPage``. Validate before calling.
    ///   - language: e.g. `en-US`; `nil` leaves TMDB's default.
    ///   - region: ISO 3166-1 code such as `US`; `nil` omits it.
    public static func popularMovies(page: Int = 1, language: String? = nil, region: String? = nil) -> Endpoint {
        Endpoint(
            path: "/movie/popular",
            queryItems: makeQuery([("page", String(page)), ("language", language), ("region", region)])
        )
    }

    /// `GET /discover/movie?with_genres=ID&sort_by=popularity.desc`: movies of one genre, most popular first.
    /// - Parameters:
    ///   - genreID: a TMDB genre id such as 28 (Action).
    ///   - page: 1-based page; TMDB accepts 1...``TMDBClient/maxPage``.
    ///   - language: e.g. `en-US`; `nil` leaves TMDB's default.
    ///   - region: ISO 3166-1 code such as `US`; `nil` omits it.
    public static func discoverMovies(
        genreID: Int, page: Int = 1, language: String? = nil, region: String? = nil
    ) -> Endpoint {
        Endpoint(
            path: "/discover/movie",
            queryItems: makeQuery([
                ("with_genres", String(genreID)),
                ("sort_by", "popularity.desc"),
                ("page", String(page)),
                ("language", language),
                ("region", region),
            ])
        )
    }
}

extension Endpoint where Response == TMDBMovieDetails {
    /// `GET /movie/{id}`: one movie's details. An unknown id gives ``TMDBError/notFound``.
    public static func movieDetails(id: Int, language: String? = nil) -> Endpoint {
        Endpoint(path: "/movie/\(id)", queryItems: makeQuery([("language", language)]))
    }

    /// `GET /movie/latest`: the newest movie record, usually nearly empty (nulls, `""`, `0`).
    public static func latestMovie(language: String? = nil) -> Endpoint {
        Endpoint(path: "/movie/latest", queryItems: makeQuery([("language", language)]))
    }
}
