/// A title search answered from the local index (`LocalMovieIndex`) or the demo catalog, with the filters
/// TMDB's `/search/movie` has that the index can honour.
///
/// The index knows each movie's primary release date only (TMDB's `year` also matches other countries'
/// release dates), so `year` and `primaryReleaseYear` both filter on the primary release date's year;
/// given both, a movie must match both. `language` is not a translation request here (the index holds the
/// text it was given, in whatever language that was fetched): it keeps movies whose original language is
/// that language, compared by the primary subtag, so `fr` and `fr-FR` both mean French.
public struct LocalSearchQuery: Sendable, Hashable {
    /// Movies per page, as TMDB pages them.
    public static let pageSize = 20

    /// The words to find in the title, the original title or the overview.
    public var query: String
    /// Any release year; locally, the primary release date's year (see the type's comment).
    public var year: Int?
    /// The primary release date's year.
    public var primaryReleaseYear: Int?
    /// An ISO 639-1 code (`fr`, or a tag such as `fr-FR`): only movies in that original language.
    public var language: String?
    /// Whether adult titles may appear (TMDB's default is no).
    public var includeAdult: Bool
    /// 1-based; pages past the last are empty.
    public var page: Int

    public init(
        query: String, year: Int? = nil, primaryReleaseYear: Int? = nil, language: String? = nil,
        includeAdult: Bool = false, page: Int = 1
    ) {
        self.query = query
        self.year = year
        self.primaryReleaseYear = primaryReleaseYear
        self.language = language
        self.includeAdult = includeAdult
        self.page = page
    }

    /// The original-language code the filter compares with: the primary subtag, lowercased; nil for none.
    var originalLanguageFilter: String? {
        guard let language else { return nil }
        let primary = language.split(separator: "-", maxSplits: 1).first.map(String.init) ?? ""
        return primary.isEmpty ? nil : primary.lowercased()
    }

    /// The one year a movie's primary release must be in, nil for any; `.some(nil)` when `year` and
    /// `primaryReleaseYear` disagree, which no movie can satisfy.
    var releaseYearFilter: Int?? {
        switch (year, primaryReleaseYear) {
        case (nil, nil): return .none
        case (let year?, nil), (nil, let year?): return .some(year)
        case (let year?, let primary?): return year == primary ? .some(year) : .some(nil)
        }
    }
}

extension LocalSearchQuery {
    /// The local form of a `movies.search`: `region` has no local meaning (the index holds one release
    /// date per movie) and is dropped; `language` becomes the original-language filter described above.
    public init(_ search: MovieSearch) {
        self.init(
            query: search.query, year: search.year, primaryReleaseYear: search.primaryReleaseYear,
            language: search.language, includeAdult: search.includeAdult, page: search.page)
    }
}
