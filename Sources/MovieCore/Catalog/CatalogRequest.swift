import Foundation

/// One catalog question. Its `cacheKey` holds every parameter that changes the answer (and never a
/// credential), so answers in different languages, regions or pages are cached apart.
public enum CatalogRequest: Hashable, Sendable {
    case genres(language: String?)
    case popular(page: Int, language: String?, region: String?)
    case byGenre(genreID: Int, page: Int, language: String?, region: String?)
    case details(movieID: Int, language: String?)
    case latest(language: String?)

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
        case .latest(let language):
            return "latest?language=\(language ?? "")"
        }
    }

    /// How long a cached answer counts as fresh.
    public var timeToLive: TimeInterval {
        switch self {
        case .genres: return 24 * 3600
        case .popular, .byGenre: return 3600
        case .details: return 6 * 3600
        case .latest: return 300
        }
    }

    /// Words for messages: "popular movies page 2".
    public var subject: String {
        switch self {
        case .genres: return "the genre list"
        case .popular(let page, _, _): return "popular movies page \(page)"
        case .byGenre(let genreID, let page, _, _): return "genre \(genreID) page \(page)"
        case .details(let movieID, _): return "movie \(movieID)"
        case .latest: return "the latest movie"
        }
    }
}

/// A catalog answer in the one shape the cache stores.
public enum CatalogPayload: Codable, Sendable, Hashable {
    case genres([Genre])
    case page(MoviePage)
    case details(MovieDetails)
}

/// Where catalog answers come from: TMDB over HTTP, or the embedded demo catalog.
public protocol CatalogSource: Sendable {
    /// `.network` for TMDB, `.demo` for the embedded catalog.
    var kind: CatalogSourceKind { get }
    /// Answers `request`. Throws `MovieError` (already mapped, naming `request.subject`) or
    /// `CancellationError`.
    func fetch(_ request: CatalogRequest) async throws -> CatalogPayload
}
