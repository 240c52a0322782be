#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The catalog shipped inside the binary, served when no TMDB credential is configured: all 19 TMDB
/// genres and real films (TMDB facts; overviews written for this project). Language and region are
/// ignored: the demo catalog is English only.
public struct DemoCatalog: CatalogSource {
    public static let pageSize = 20
    public var kind: CatalogSourceKind { .demo }

    /// The embedded catalog. Its data is decoded on first use, not at startup.
    public static let embedded = DemoCatalog()

    /// The embedded data, decoded once, movies by popularity.
    private static let embeddedData: DemoCatalogData = {
        do {
            var data = try JSONDecoder().decode(DemoCatalogData.self, from: Data(DemoCatalogJSON.text.utf8))
            data.movies.sort { $0.popularity > $1.popularity }
            return data
        } catch {
            // The embedded data is decoded by a unit test; failing here is a build defect, not an input error.
            preconditionFailure("Embedded demo catalog is invalid: \(error)")
        }
    }()

    var data: DemoCatalogData { Self.embeddedData }

    public var genres: [Genre] { data.genres }
    public var movieCount: Int { data.movies.count }

    public func fetch(_ request: CatalogRequest) async throws -> CatalogPayload {
        if let answer = try answerInMemory(request) { return answer }
        guard case .search(let search) = request else { throw MovieError.notFound(request.subject) }
        return Self.keep(.page(await self.search(LocalSearchQuery(search))), for: request)
    }

    /// Every answer once it was built, and every one but a search's before: a search is a query of the
    /// demo's SQLite index (up to half a millisecond for a word most titles hold), which `fetch` runs on the
    /// index's queue, off the caller's thread.
    public func answerInMemory(_ request: CatalogRequest) throws -> CatalogPayload? {
        if let kept = Self.keptAnswer(request) { return kept }
        return try answer(request).map { Self.keep($0, for: request) }
    }

    /// Answers already built, by request: the demo's answers never change, and a page built per request
    /// copied twenty movies field by field (`movies.byGenre` also filtered every movie: a third as fast as
    /// a Python loop writing the same bytes). At most `keptAnswerCapacity`, a few MB at most; errors are not
    /// kept.
    private static let keptAnswers = Mutex<[CatalogRequest: CatalogPayload]>([:])
    private static let keptAnswerCapacity = 256

    private static func keptAnswer(_ request: CatalogRequest) -> CatalogPayload? {
        keptAnswers.withLock { $0[request] }
    }

    private static func keep(_ answer: CatalogPayload, for request: CatalogRequest) -> CatalogPayload {
        keptAnswers.withLock { $0.set(answer, for: request, keepingAtMost: keptAnswerCapacity) }
        return answer
    }

    /// The answer to `request` built from the data; nil for a search (see `fetch`).
    func answer(_ request: CatalogRequest) throws -> CatalogPayload? {
        switch request {
        case .genres:
            return .genres(data.genres)
        case .popular(let page, _, _):
            return .page(paginate(data.movies, page: page))
        case .byGenre(let genreID, let page, _, _):
            guard data.genres.contains(where: { $0.id == genreID }) else { throw MovieError.notFound(request.subject) }
            return .page(paginate(data.movies.filter { ($0.genreIds ?? []).contains(genreID) }, page: page))
        case .details(let movieID, _):
            guard let movie = data.movies.first(where: { $0.id == movieID }) else {
                throw MovieError.notFound(request.subject)
            }
            return .details(movie.details(genres: data.genres))
        case .latest:
            return .details(data.latest.details(genres: data.genres))
        case .detailsWithParts(let movieID, _):
            guard let movie = data.movies.first(where: { $0.id == movieID }) else {
                throw MovieError.notFound(request.subject)
            }
            // Only what the demo data holds: the IMDb id. Credits, videos, providers and release dates
            // stay nil, and the method refuses them with unavailableInDemo.
            var details = movie.details(genres: data.genres)
            details.externalIds = ExternalIDs(imdbId: movie.imdbId)
            return .details(details)
        case .trending, .list, .discover, .related, .find:
            return try listAnswer(request)
        case .search:
            return nil
        case .credits: throw MovieError.unavailableInDemo("Credits are")
        case .videos: throw MovieError.unavailableInDemo("Videos are")
        case .watchProviders: throw MovieError.unavailableInDemo("Watch providers are")
        case .searchPeople, .person: throw MovieError.unavailableInDemo("People are")
        }
    }

    func paginate(_ movies: [DemoMovie], page: Int) -> MoviePage {
        let totalPages = max(1, (movies.count + Self.pageSize - 1) / Self.pageSize)
        let start = (min(max(page, 1), MoviePage.maxPage + 1) - 1) * Self.pageSize  // no overflow for any page
        let slice = start < movies.count ? movies[start..<min(movies.count, start + Self.pageSize)] : []
        return MoviePage(
            page: page, totalPages: totalPages, totalResults: movies.count, results: slice.map(\.summary))
    }
}

/// The shape of `data/demo-catalog.json`.
struct DemoCatalogData: Decodable, Sendable {
    var genres: [Genre]
    var movies: [DemoMovie]
    var latest: DemoMovie
}

struct DemoMovie: Decodable, Sendable {
    var id: Int
    var title: String
    var originalTitle: String?
    var originalLanguage: String?
    var overview: String?
    var releaseDate: String?
    var genreIds: [Int]?
    var voteAverage: Double?
    var voteCount: Int?
    var popularity: Double
    var adult: Bool?
    var posterPath: String?
    var backdropPath: String?
    var tagline: String?
    var runtime: Int?
    var status: String?
    var homepage: String?
    var imdbId: String?
    var budget: Int?
    var revenue: Int?
    var spokenLanguages: [String]?
    var productionCompanies: [String]?

    var summary: MovieSummary {
        MovieSummary(
            id: id, title: title, originalTitle: originalTitle ?? title, overview: overview ?? "",
            releaseDate: releaseDate ?? "", genreIds: genreIds ?? [], voteAverage: voteAverage ?? 0,
            voteCount: voteCount ?? 0, popularity: popularity, adult: adult ?? false,
            originalLanguage: originalLanguage ?? "", posterPath: posterPath, backdropPath: backdropPath)
    }

    func details(genres: [Genre]) -> MovieDetails {
        let ids = genreIds ?? []
        return MovieDetails(
            summary: summary, tagline: tagline ?? "", runtime: runtime, status: status ?? "",
            genres: ids.compactMap { id in genres.first { $0.id == id } }, homepage: homepage ?? "",
            imdbId: imdbId, budget: budget ?? 0, revenue: revenue ?? 0, spokenLanguages: spokenLanguages ?? [],
            productionCompanies: productionCompanies ?? [])
    }
}
