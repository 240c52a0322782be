#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// One catalog question. Its `cacheKey` holds every parameter that changes the answer (and never a
/// credential), so answers in different languages, regions or pages are cached apart.
public enum CatalogRequest: Hashable, Sendable {
    case genres(language: String?)
    case popular(page: Int, language: String?, region: String?)
    case byGenre(genreID: Int, page: Int, language: String?, region: String?)
    case details(movieID: Int, language: String?)
    /// Details with every ``DetailsPart``, fetched in one request and stored as one entry.
    case detailsWithParts(movieID: Int, language: String?)
    case latest(language: String?)
    // The two large payloads (a `DiscoverFilter` is about 250 bytes) are boxed: every request is copied,
    // hashed and compared as a cache key, and without the boxes each of those moved about 300 bytes.
    indirect case search(MovieSearch)
    case trending(window: TrendingWindow, page: Int, language: String?)
    case list(MovieList, page: Int, language: String?, region: String?)
    indirect case discover(DiscoverFilter, page: Int, language: String?, region: String?)
    case related(RelatedMovies, movieID: Int, page: Int, language: String?)
    case credits(movieID: Int)
    case videos(movieID: Int, language: String?)
    /// Every country's offers at once: the region is chosen from the stored answer.
    case watchProviders(movieID: Int)
    case find(imdbID: String)
    case searchPeople(query: String, page: Int)
    case person(personID: Int, language: String?)

    public var cacheKey: String {
        switch self {
        case .genres(let language):
            return "genres?language=\(language ?? "")"
        case .popular(let page, let language, let region):
            return "popular?language=\(language ?? "")&page=\(page)&region=\(region ?? "")"
        case .byGenre(let genreID, let page, let language, let region):
            return "discover?genre=\(genreID)&language=\(language ?? "")&page=\(page)&region=\(region ?? "")"
        case .details(let movieID, let language):
            return "movie/\(movieID)?language=\(language ?? "")"
        case .detailsWithParts(let movieID, let language):
            return "movie/\(movieID)?append=all&language=\(language ?? "")"
        case .latest(let language):
            return "latest?language=\(language ?? "")"
        case .search(let search):
            return "search?adult=\(search.includeAdult)&language=\(search.language ?? "")&page=\(search.page)"
                + "&primaryReleaseYear=\(search.primaryReleaseYear.map(String.init) ?? "")"
                + "&region=\(search.region ?? "")&year=\(search.year.map(String.init) ?? "")"
                + "&query=" + PercentEncoding.encode(search.query, keeping: PercentEncoding.isASCIIAlphanumeric)
        case .trending(let window, let page, let language):
            return "trending/\(window.rawValue)?language=\(language ?? "")&page=\(page)"
        case .list(let list, let page, let language, let region):
            return "\(list.rawValue)?language=\(language ?? "")&page=\(page)&region=\(region ?? "")"
        case .discover(let filter, let page, let language, let region):
            return "discover?\(filter.cacheKey)&language=\(language ?? "")&page=\(page)&region=\(region ?? "")"
        case .related(let kind, let movieID, let page, let language):
            return "movie/\(movieID)/\(kind.rawValue)?language=\(language ?? "")&page=\(page)"
        case .credits(let movieID):
            return "movie/\(movieID)/credits"
        case .videos(let movieID, let language):
            return "movie/\(movieID)/videos?language=\(language ?? "")"
        case .watchProviders(let movieID):
            return "movie/\(movieID)/watch/providers"
        case .find(let imdbID):
            return "find/\(imdbID)"
        case .searchPeople(let query, let page):
            return "search/person?page=\(page)&query="
                + PercentEncoding.encode(query, keeping: PercentEncoding.isASCIIAlphanumeric)
        case .person(let personID, let language):
            return "person/\(personID)?language=\(language ?? "")"
        }
    }

    /// How long a cached answer counts as fresh.
    public var timeToLive: TimeInterval {
        switch self {
        case .genres: return 24 * 3600
        case .popular, .byGenre, .trending, .list, .discover, .related, .search, .searchPeople: return 3600
        case .details, .detailsWithParts, .credits, .videos, .find, .person: return 6 * 3600
        case .watchProviders: return 24 * 3600
        case .latest: return 300
        }
    }

    /// Words for messages: "popular movies page 2".
    public var subject: String {
        switch self {
        case .genres: return "the genre list"
        case .popular(let page, _, _): return "popular movies page \(page)"
        case .byGenre(let genreID, let page, _, _): return "genre \(genreID) page \(page)"
        case .details(let movieID, _), .detailsWithParts(let movieID, _): return "movie \(movieID)"
        case .latest: return "the latest movie"
        case .search(let search): return "the search for \"\(search.query.prefix(100))\" page \(search.page)"
        case .trending(let window, let page, _): return "movies trending this \(window.rawValue) page \(page)"
        case .list(let list, let page, _, _): return "\(list.words) page \(page)"
        case .discover(_, let page, _, _): return "the discovery page \(page)"
        case .related(let kind, let movieID, let page, _): return "movie \(movieID)'s \(kind.rawValue) page \(page)"
        case .credits(let movieID): return "movie \(movieID)'s credits"
        case .videos(let movieID, _): return "movie \(movieID)'s videos"
        case .watchProviders(let movieID): return "movie \(movieID)'s watch providers"
        case .find(let imdbID): return "a movie with IMDb id \(imdbID)"
        case .searchPeople(let query, let page): return "the people search for \"\(query.prefix(100))\" page \(page)"
        case .person(let personID, _): return "person \(personID)"
        }
    }
}

/// A catalog answer in the one shape the cache stores. `indirect`: each payload lives in one box, so a
/// stored copy is handed from the memory layer to a request with one retain, not one per field of its
/// details or page (a cached `movies.details` copied it twice, 2,900 instructions).
public indirect enum CatalogPayload: Codable, Sendable, Hashable {
    case genres([Genre])
    case page(MoviePage)
    case details(MovieDetails)
    case credits(MovieCredits)
    case videos([Video])
    case watchProviders([String: WatchOptions])
    case movie(MovieSummary)
    case people(PersonPage)
    case person(PersonDetails)
}

/// Where catalog answers come from: TMDB over HTTP, or the embedded demo catalog.
public protocol CatalogSource: Sendable {
    /// `.network` for TMDB, `.demo` for the embedded catalog.
    var kind: CatalogSourceKind { get }
    /// Answers `request`. Throws `MovieError` (already mapped, naming `request.subject`) or
    /// `CancellationError`.
    func fetch(_ request: CatalogRequest) async throws -> CatalogPayload
    /// The answer to `request` when the source holds every answer in memory (the embedded catalog), given
    /// on the caller's thread: a demo `genres.list` then needs no hop to the repository's actor and back,
    /// which was most of its time. Nil: `request` must be fetched. Throws as `fetch` does.
    func answerInMemory(_ request: CatalogRequest) throws -> CatalogPayload?
}

extension CatalogSource {
    public func answerInMemory(_ request: CatalogRequest) throws -> CatalogPayload? { nil }
}
