/// An order of TMDB's `/discover/movie` (`sort_by`): its raw values are TMDB's documented ones
/// (`popularity.desc`, `primary_release_date.asc`, …), so a client's value is checked against this list.
public struct DiscoverSortOrder: RawRepresentable, Sendable, Hashable, CaseIterable {
    public enum Field: String, Sendable, CaseIterable {
        case popularity
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case primaryReleaseDate = "primary_release_date"
        case revenue
        case title
        case originalTitle = "original_title"
    }

    public var field: Field
    public var ascending: Bool

    /// TMDB's default.
    public static let popularityDescending = DiscoverSortOrder(field: .popularity, ascending: false)

    public static let allCases: [DiscoverSortOrder] = Field.allCases.flatMap { field in
        [DiscoverSortOrder(field: field, ascending: true), DiscoverSortOrder(field: field, ascending: false)]
    }

    public init(field: Field, ascending: Bool) {
        self.field = field
        self.ascending = ascending
    }

    /// `field.asc` or `field.desc`; nil for anything else.
    public init?(rawValue: String) {
        guard let dot = rawValue.lastIndex(of: "."),
            let field = Field(rawValue: String(rawValue[..<dot]))
        else { return nil }
        switch rawValue[rawValue.index(after: dot)...] {
        case "asc": self.init(field: field, ascending: true)
        case "desc": self.init(field: field, ascending: false)
        default: return nil
        }
    }

    public var rawValue: String {
        field.rawValue + (ascending ? ".asc" : ".desc")
    }
}
