import Foundation
import TMDB

/// The catalog from TMDB v3: each request becomes an endpoint, each TMDB model a domain model.
public struct TMDBCatalogSource: CatalogSource {
    public let client: TMDBClient
    public var kind: CatalogSourceKind { .network }

    public init(client: TMDBClient) {
        self.client = client
    }

    public func fetch(_ request: CatalogRequest) async throws -> CatalogPayload {
        do {
            switch request {
            case .genres(let language):
                let list = try await client.send(.movieGenres(language: language))
                return .genres(list.genres.map { Genre(id: $0.id, name: $0.name) })
            case .popular(let page, let language, let region):
                return .page(Self.page(try await client.send(.popularMovies(page: page, language: language, region: region))))
            case .byGenre(let genreID, let page, let language, let region):
                let endpoint = Endpoint<TMDBPage<TMDBMovieListItem>>.discoverMovies(
                    genreID: genreID, page: page, language: language, region: region)
                return .page(Self.page(try await client.send(endpoint)))
            case .details(let movieID, let language):
                return .details(Self.details(try await client.send(.movieDetails(id: movieID, language: language))))
            case .latest(let language):
                return .details(Self.details(try await client.send(.latestMovie(language: language))))
            }
        } catch {
            throw Self.map(error, subject: request.subject)
        }
    }

    /// The one place where TMDB's failures become the domain's. `subject` names what was asked for.
    static func map(_ error: TMDBError, subject: String) -> any Error {
        switch error {
        case .offline: return MovieError.offlineNotCached(subject)
        case .unauthorized(let message): return MovieError.upstreamUnauthorized("TMDB rejected the credential: \(message)")
        case .notFound: return MovieError.notFound(subject)
        case .rateLimited(let retryAfter): return MovieError.rateLimited(retryAfter: retryAfter)
        case .server(let httpStatus, _, let message, let retryable):
            return MovieError.upstream(
                httpStatus: httpStatus, retryable: retryable,
                message: "TMDB answered HTTP \(httpStatus)" + (message.map { ": \($0)" } ?? ""))
        case .invalidResponse:
            return MovieError.upstream(httpStatus: 502, retryable: true, message: "TMDB sent a malformed answer")
        case .cancelled: return CancellationError()
        }
    }

    static func page(_ page: TMDBPage<TMDBMovieListItem>) -> MoviePage {
        MoviePage(page: page.page, totalPages: page.totalPages, totalResults: page.totalResults, results: page.results.map(summary))
    }

    static func summary(_ item: TMDBMovieListItem) -> MovieSummary {
        MovieSummary(
            id: item.id, title: item.title, originalTitle: item.originalTitle, overview: item.overview,
            releaseDate: item.releaseDate, genreIds: item.genreIds, voteAverage: item.voteAverage,
            voteCount: item.voteCount, popularity: item.popularity, adult: item.adult,
            originalLanguage: item.originalLanguage, posterPath: nonEmpty(item.posterPath),
            backdropPath: nonEmpty(item.backdropPath))
    }

    static func details(_ movie: TMDBMovieDetails) -> MovieDetails {
        let summary = MovieSummary(
            id: movie.id, title: movie.title, originalTitle: movie.originalTitle, overview: movie.overview,
            releaseDate: movie.releaseDate, genreIds: movie.genres.map(\.id), voteAverage: movie.voteAverage,
            voteCount: movie.voteCount, popularity: movie.popularity, adult: movie.adult,
            originalLanguage: movie.originalLanguage, posterPath: nonEmpty(movie.posterPath),
            backdropPath: nonEmpty(movie.backdropPath))
        return MovieDetails(
            summary: summary, tagline: movie.tagline, runtime: movie.runtime, status: movie.status,
            genres: movie.genres.map { Genre(id: $0.id, name: $0.name) }, homepage: movie.homepage,
            imdbId: nonEmpty(movie.imdbId), budget: movie.budget, revenue: movie.revenue,
            spokenLanguages: movie.spokenLanguages.map { $0.englishName.isEmpty ? $0.name : $0.englishName },
            productionCompanies: movie.productionCompanies.map(\.name))
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
