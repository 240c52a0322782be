/// An order of TMDB's `/discover/movie` (`sort_by`, one of `DiscoverMovieQuery.sortOrders`), taken apart
/// for the demo catalog, which sorts by itself.
struct DiscoverSortOrder: RawRepresentable, Sendable, Hashable {
    enum Field: String, Sendable, CaseIterable {
        case popularity
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case primaryReleaseDate = "primary_release_date"
        case revenue
        case title
        case originalTitle = "original_title"
    }

    var field: Field
    var ascending: Bool

    /// TMDB's default.
    static let popularityDescending = DiscoverSortOrder(field: .popularity, ascending: false)

    init(field: Field, ascending: Bool) {
        self.field = field
        self.ascending = ascending
    }

    /// `field.asc` or `field.desc`; nil for anything else.
    init?(rawValue: String) {
        guard let dot = rawValue.lastIndex(of: "."),
            let field = Field(rawValue: String(rawValue[..<dot]))
        else { return nil }
        switch rawValue[rawValue.index(after: dot)...] {
        case "asc": self.init(field: field, ascending: true)
        case "desc": self.init(field: field, ascending: false)
        default: return nil
        }
    }

    var rawValue: String {
        field.rawValue + (ascending ? ".asc" : ".desc")
    }
}
