extension CatalogPayload {
    /// The movies this answer carries, for the offline search index (`LocalMovieIndex`).
    var indexedMovies: [MovieSummary] {
        switch self {
        case .genres: return []
        case .page(let page): return page.results
        case .details(let details): return [details.summary]
        }
    }
}
