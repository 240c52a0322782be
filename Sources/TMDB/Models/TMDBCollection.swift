/// The collection a movie belongs to: `{"id", "name", "poster_path", "backdrop_path"}`.
public struct TMDBCollection: Codable, Sendable, Hashable {
    /// The TMDB collection id.
    public var id: Int
    /// The collection name, e.g. `Star Wars Collection`.
    public var name: String
    /// Poster file path, or `nil`.
    public var posterPath: String?
    /// Backdrop file path, or `nil`.
    public var backdropPath: String?

    /// Creates a collection summary.
    public init(id: Int, name: String = "", posterPath: String? = nil, backdropPath: String? = nil) {
        self.id = id
        self.name = name
        self.posterPath = posterPath
        self.backdropPath = backdropPath
    }

    enum CodingKeys: String, CodingKey {
        case id
        case name
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
    }

    /// Decodes tolerantly: a missing or `null` field becomes `0` / `""` / `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id, default: 0)
        name = try container.decode(String.self, forKey: .name, default: "")
        posterPath = try container.decodeIfPresent(String.self, forKey: .posterPath)
        backdropPath = try container.decodeIfPresent(String.self, forKey: .backdropPath)
    }
}
