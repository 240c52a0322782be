/// The body of `GET /genre/movie/list`: `{"genres": [...]}`.
public struct TMDBGenreList: Codable, Sendable, Hashable {
    /// The genres, in TMDB's order.
    public var genres: [TMDBGenre]

    /// Creates a genre list.
    public init(genres: [TMDBGenre]) {
        self.genres = genres
    }

    enum CodingKeys: String, CodingKey {
        case genres
    }

    /// Decodes tolerantly: a missing or `null` list becomes `[]`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        genres = try container.decode([TMDBGenre].self, forKey: .genres, default: [])
    }
}
