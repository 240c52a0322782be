#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
            case .detailsWithParts(let movieID, let language):
                let endpoint = Endpoint<TMDBMovieDetails>.movieDetails(
                    id: movieID, language: language, appending: DetailsPart.allCases.map(\.tmdbName))
                var details = Self.details(try await client.send(endpoint))
                // Asked for, so an absent part means TMDB has none of it, not that it is unknown.
                details.credits = details.credits ?? MovieCredits(cast: [], crew: [])
                details.videos = details.videos ?? []
                details.watchProviders = details.watchProviders ?? [:]
                details.releaseDates = details.releaseDates ?? [:]
                details.externalIds = details.externalIds ?? ExternalIDs(imdbId: details.imdbId)
                return .details(details)
            case .search(let search):
                return .page(Self.page(try await client.send(.searchMovies(
                    query: search.query, page: search.page, year: search.year,
                    primaryReleaseYear: search.primaryReleaseYear, language: search.language, region: search.region,
                    includeAdult: search.includeAdult))))
            case .trending(let window, let page, let language):
                return .page(Self.page(try await client.send(
                    .trendingMovies(window: window.rawValue, page: page, language: language))))
            case .list(let list, let page, let language, let region):
                return .page(Self.page(try await client.send(
                    .movieList(list.rawValue, page: page, language: language, region: region))))
            case .discover(let filter, let page, let language, let region):
                return .page(Self.page(try await client.send(
                    .discoverMovies(Self.query(filter), page: page, language: language, region: region))))
            case .related(let kind, let movieID, let page, let language):
                return .page(Self.page(try await client.send(
                    .relatedMovies(kind.rawValue, movieID: movieID, page: page, language: language))))
            case .credits(let movieID):
                return .credits(Self.credits(try await client.send(.movieCredits(id: movieID))))
            case .videos(let movieID, let language):
                return .videos(Self.videos(try await client.send(.movieVideos(id: movieID, language: language))))
            case .watchProviders(let movieID):
                return .watchProviders(Self.providers(try await client.send(.movieWatchProviders(id: movieID))))
            case .find(let imdbID):
                let found = try await client.send(.findByIMDbID(imdbID))
                guard let movie = found.movieResults.first else { throw MovieError.notFound(request.subject) }
                return .movie(Self.summary(movie))
            case .searchPeople(let query, let page):
                let people = try await client.send(.searchPeople(query: query, page: page))
                return .people(PersonPage(
                    page: people.page, totalPages: people.totalPages, totalResults: people.totalResults,
                    results: people.results.map(Self.person)))
            case .person(let personID, let language):
                return .person(Self.person(try await client.send(.personDetails(id: personID, language: language))))
            }
        } catch let error as TMDBError {
            throw Self.map(error, subject: request.subject)
        }
    }

    /// The one place where TMDB's failures become the domain's. `subject` names what was asked for.
    static func map(_ error: TMDBError, subject: String) -> any Error {
        switch error {
        case .offline: return MovieError.offlineNotCached(subject)
        case .unauthorized(let message):
            return MovieError.upstreamUnauthorized("TMDB rejected the credential: \(message)")
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
        MoviePage(
            page: page.page, totalPages: max(page.totalPages, 0), totalResults: max(page.totalResults, 0),
            results: page.results.map(summary),
            dates: page.dates.map { DateRange(minimum: $0.minimum, maximum: $0.maximum) })
    }

    static func query(_ filter: DiscoverFilter) -> DiscoverMovieQuery {
        var query = DiscoverMovieQuery()
        query.genreIDs = filter.genreIDs
        query.allGenres = filter.genreMatch == .all
        query.withoutGenreIDs = filter.withoutGenreIDs
        query.primaryReleaseYear = filter.year
        query.releasedFrom = filter.releasedFrom
        query.releasedTo = filter.releasedTo
        query.minRating = filter.minRating
        query.minVotes = filter.minVotes
        query.minRuntime = filter.minRuntime
        query.maxRuntime = filter.maxRuntime
        query.originalLanguage = filter.originalLanguage
        query.sortBy = filter.sortBy
        query.watchProviderIDs = filter.watchProviderIDs
        query.watchRegion = filter.watchRegion
        query.certification = filter.certification
        query.certificationCountry = filter.certificationCountry
        return query
    }

    static func credits(_ credits: TMDBCredits) -> MovieCredits {
        MovieCredits(
            cast: credits.cast.map {
                CastCredit(
                    personID: $0.id, name: $0.name, character: $0.character, order: $0.order,
                    profilePath: nonEmpty($0.profilePath))
            },
            crew: credits.crew.map {
                CrewCredit(
                    personID: $0.id, name: $0.name, job: $0.job, department: $0.department,
                    profilePath: nonEmpty($0.profilePath))
            })
    }

    static func videos(_ list: TMDBVideoList) -> [Video] {
        Video.ordered(list.results.map {
            Video(name: $0.name, site: $0.site, key: $0.key, type: $0.type, official: $0.official,
                  publishedAt: $0.publishedAt)
        })
    }

    static func providers(_ providers: TMDBWatchProviders) -> [String: WatchOptions] {
        func list(_ items: [TMDBWatchProvider]) -> [WatchProvider] {
            items.sorted { $0.displayPriority < $1.displayPriority }.map {
                WatchProvider(providerID: $0.providerId, name: $0.providerName, logoPath: nonEmpty($0.logoPath))
            }
        }
        return providers.results.mapValues {
            WatchOptions(
                link: $0.link, flatrate: list($0.flatrate), rent: list($0.rent), buy: list($0.buy),
                free: list($0.free), ads: list($0.ads))
        }
    }

    static func person(_ item: TMDBPersonListItem) -> Person {
        Person(
            id: item.id, name: item.name, knownForDepartment: item.knownForDepartment,
            profilePath: nonEmpty(item.profilePath), popularity: item.popularity)
    }

    static func person(_ details: TMDBPersonDetails) -> PersonDetails {
        func credit(_ credit: TMDBPersonCredit) -> PersonMovieCredit {
            PersonMovieCredit(
                movie: summary(credit.movie), character: credit.character, job: credit.job,
                department: credit.department)
        }
        return PersonDetails(
            person: Person(
                id: details.id, name: details.name, knownForDepartment: details.knownForDepartment,
                profilePath: nonEmpty(details.profilePath), popularity: 0),
            biography: details.biography, birthday: nonEmpty(details.birthday), deathday: nonEmpty(details.deathday),
            placeOfBirth: nonEmpty(details.placeOfBirth), cast: (details.movieCredits?.cast ?? []).map(credit),
            crew: (details.movieCredits?.crew ?? []).map(credit))
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
        var details = MovieDetails(
            summary: summary, tagline: movie.tagline, runtime: movie.runtime, status: movie.status,
            genres: movie.genres.map { Genre(id: $0.id, name: $0.name) }, homepage: movie.homepage,
            imdbId: nonEmpty(movie.imdbId), budget: movie.budget, revenue: movie.revenue,
            spokenLanguages: movie.spokenLanguages.map { $0.englishName.isEmpty ? $0.name : $0.englishName },
            productionCompanies: movie.productionCompanies.map(\.name))
        details.credits = movie.credits.map(credits)
        details.videos = movie.videos.map(videos)
        details.watchProviders = movie.watchProviders.map(providers)
        details.releaseDates = movie.releaseDates.map { dates in
            Dictionary(dates.results.map { country in
                (country.country, country.releaseDates.map {
                    Release(certification: $0.certification, type: $0.type, date: $0.releaseDate)
                })
            }, uniquingKeysWith: { first, _ in first })
        }
        details.externalIds = movie.externalIds.map {
            ExternalIDs(
                imdbId: nonEmpty($0.imdbId), wikidataId: nonEmpty($0.wikidataId), facebookId: nonEmpty($0.facebookId),
                instagramId: nonEmpty($0.instagramId), twitterId: nonEmpty($0.twitterId))
        }
        return details
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
