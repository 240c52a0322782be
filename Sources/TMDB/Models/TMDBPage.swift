/// TMDB's paginated envelope: `{"page", "results", "total_pages", "total_results"}`, 20 items a page.
public struct TMDBPage<Item: Sendable>: Sendable {
    /// The 1-based page number.
    public var page: Int
    /// The items on this page.
    public var results: [Item]
    /// The total page count as reported by TMDB (may exceed ``TMDBClient/maxPage``).
    public var totalPages: Int
    /// The total item count as reported by TMDB.
    public var totalResults: Int
    /// `now_playing` and `upcoming` only: the release dates the list covers.
    public var dates: TMDBDateRange?

    /// Creates a page.
    public init(
        page: Int = 1, results: [Item] = [], totalPages: Int = 0, totalResults: Int = 0, dates: TMDBDateRange? = nil
    ) {
        self.dates = dates
        self.page = page
        self.results = results
        self.totalPages = totalPages
        self.totalResults = totalResults
    }

    /// The pages that can actually be requested: ``totalPages`` clamped to ``TMDBClient/maxPage``.
    public var reachablePages: Int { min(max(totalPages, 0), TMDBClient.maxPage) }

    enum CodingKeys: String, CodingKey {
        case page
        case results
        case totalPages = "total_pages"
        case totalResults = "total_results"
        case dates
    }
}

extension TMDBPage: Decodable where Item: Decodable {
    /// Decodes tolerantly: missing or `null` fields become `0` / `[]`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        page = try container.decode(Int.self, forKey: .page, default: 0)
        results = try container.decode([Item].self, forKey: .results, default: [])
        totalPages = try container.decode(Int.self, forKey: .totalPages, default: 0)
        totalResults = try container.decode(Int.self, forKey: .totalResults, default: 0)
        dates = try container.decodeIfPresent(TMDBDateRange.self, forKey: .dates)
    }
}

extension TMDBPage: Encodable where Item: Encodable {
    /// Encodes in TMDB's snake_case shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(page, forKey: .page)
        try container.encode(results, forKey: .results)
        try container.encode(totalPages, forKey: .totalPages)
        try container.encode(totalResults, forKey: .totalResults)
        try container.encodeIfPresent(dates, forKey: .dates)
    }
}

extension TMDBPage: Equatable where Item: Equatable {}
extension TMDBPage: Hashable where Item: Hashable {}

/// `{"minimum", "maximum"}`: `YYYY-MM-DD` bounds of a dated list.
public struct TMDBDateRange: Codable, Sendable, Hashable {
    public var minimum: String
    public var maximum: String

    public init(minimum: String, maximum: String) {
        self.minimum = minimum
        self.maximum = maximum
    }
}
