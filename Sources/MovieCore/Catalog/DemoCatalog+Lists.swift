import Foundation

/// The demo catalog's answers to the list requests beyond popular and genre pages, from its own data.
///
/// This switch is the one place that routes the demo's list requests. Search and discover are the local
/// search index's work (`DemoCatalog.search(_:)`, `discover(_:)`); until those are wired in here they
/// are refused as not in the demo catalog.
extension DemoCatalog {
    func listAnswer(_ request: CatalogRequest) throws -> CatalogPayload {
        switch request {
        case .trending(_, let page, _):
            // The demo has no viewing history: trending is its popularity order, for a day or a week.
            return .page(paginate(data.movies, page: page))
        case .list(.topRated, let page, _, _):
            let rated = data.movies.filter { ($0.voteCount ?? 0) > 0 }.sorted {
                (($0.voteAverage ?? 0), ($0.voteCount ?? 0)) > (($1.voteAverage ?? 0), ($1.voteCount ?? 0))
            }
            return .page(paginate(rated, page: page))
        case .list(let list, _, _, _):
            // Now playing and upcoming depend on today's date and real release schedules.
            throw MovieError.unavailableInDemo(list == .nowPlaying ? "Movies now playing are" : "Upcoming movies are")
        case .find(let imdbID):
            guard let movie = data.movies.first(where: { $0.imdbId == imdbID }) else {
                throw MovieError.notFound(request.subject)
            }
            return .movie(movie.summary)
        case .search:
            throw MovieError.unavailableInDemo("Search is")
        case .discover:
            throw MovieError.unavailableInDemo("Discover filters are")
        case .related(_, let movieID, let page, _):
            guard let movie = data.movies.first(where: { $0.id == movieID }) else {
                throw MovieError.notFound(request.subject)
            }
            // Movies sharing a genre with it, by popularity (the order `data.movies` is in).
            let genres = Set(movie.genreIds ?? [])
            let related = data.movies.filter { $0.id != movieID && !genres.isDisjoint(with: $0.genreIds ?? []) }
            return .page(paginate(related, page: page))
        default:
            throw MovieError.notFound(request.subject)
        }
    }
}
