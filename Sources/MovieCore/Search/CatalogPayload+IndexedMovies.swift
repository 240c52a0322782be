extension CatalogPayload {
    /// The movies this answer carries, for the offline search index (`LocalMovieIndex`): every list, a
    /// movie's details, a found movie, and the films of a person's filmography.
    var indexedMovies: [MovieSummary] {
        switch self {
        case .page(let page): return page.results
        case .details(let details): return [details.summary]
        case .movie(let movie): return [movie]
        case .person(let person):
            var seen = Set<Int>()
            return (person.cast + person.crew).map(\.movie).filter { seen.insert($0.id).inserted }
        case .genres, .credits, .videos, .watchProviders, .people: return []
        }
    }
}
