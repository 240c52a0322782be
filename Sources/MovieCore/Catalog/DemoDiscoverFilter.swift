/// What `DemoCatalog.discover` keeps and how it orders them: the filters of TMDB's `/discover/movie`
/// that the demo data can answer. Every filter left nil (or empty) keeps every movie.
public struct DemoDiscoverFilter: Sendable, Hashable {
    /// How `genreIds` combine: TMDB's `,` (all of them) or `|` (any of them).
    public enum GenreMatch: String, Sendable, CaseIterable {
        case all
        case any
    }

    public var genreIds: [Int]
    public var genreMatch: GenreMatch
    /// Movies with any of these genres are left out.
    public var withoutGenreIds: [Int]
    /// The primary release date's year.
    public var year: Int?
    /// Earliest primary release date, `YYYY-MM-DD`, inclusive; movies without a date are left out.
    public var releasedFrom: String?
    /// Latest primary release date, `YYYY-MM-DD`, inclusive; movies without a date are left out.
    public var releasedTo: String?
    /// Least vote average (0–10).
    public var minRating: Double?
    /// Least vote count.
    public var minVotes: Int?
    /// Least runtime in minutes; movies whose runtime the demo does not know are left out.
    public var minRuntime: Int?
    /// Most runtime in minutes; movies whose runtime the demo does not know are left out.
    public var maxRuntime: Int?
    /// ISO 639-1 code of the original language (`ja`).
    public var originalLanguage: String?
    public var sortBy: DiscoverSortOrder
    /// 1-based; pages past the last are empty.
    public var page: Int

    public init(
        genreIds: [Int] = [], genreMatch: GenreMatch = .all, withoutGenreIds: [Int] = [], year: Int? = nil,
        releasedFrom: String? = nil, releasedTo: String? = nil, minRating: Double? = nil, minVotes: Int? = nil,
        minRuntime: Int? = nil, maxRuntime: Int? = nil, originalLanguage: String? = nil,
        sortBy: DiscoverSortOrder = .popularityDescending, page: Int = 1
    ) {
        self.genreIds = genreIds
        self.genreMatch = genreMatch
        self.withoutGenreIds = withoutGenreIds
        self.year = year
        self.releasedFrom = releasedFrom
        self.releasedTo = releasedTo
        self.minRating = minRating
        self.minVotes = minVotes
        self.minRuntime = minRuntime
        self.maxRuntime = maxRuntime
        self.originalLanguage = originalLanguage
        self.sortBy = sortBy
        self.page = page
    }
}
