#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The demo catalog's answers to the list requests beyond popular and genre pages, from its own data
/// (`DemoCatalog+Queries.swift`). This switch is the one place that routes them.
extension DemoCatalog {
    /// Every list answer but a search's (``search(_:)``, which runs on its index's queue).
    func listAnswer(_ request: CatalogRequest) throws -> CatalogPayload {
        switch request {
        case .trending(let window, let page, _):
            return .page(trending(window: window, page: page))
        case .list(.topRated, let page, _, _):
            return .page(topRated(page: page))
        case .list(let list, _, _, _):
            // Now playing and upcoming depend on today's date and real release schedules.
            throw MovieError.unavailableInDemo(list == .nowPlaying ? "Movies now playing are" : "Upcoming movies are")
        case .discover(let filter, let page, _, _):
            if !filter.watchProviderIDs.isEmpty { throw MovieError.unavailableInDemo("Watch provider filters are") }
            if filter.certification != nil { throw MovieError.unavailableInDemo("Certification filters are") }
            return .page(discover(filter, page: page))
        case .related(_, let movieID, let page, _):
            // The demo has no viewing data: recommendations and similar movies are both "same genres".
            guard let related = recommendations(movieID: movieID, page: page) else {
                throw MovieError.notFound(request.subject)
            }
            return .page(related)
        case .find(let imdbID):
            guard let movie = find(imdbID: imdbID) else { throw MovieError.notFound(request.subject) }
            return .movie(movie)
        default:
            throw MovieError.notFound(request.subject)
        }
    }
}
