/// A TMDB genre, e.g. `{"id": 28, "name": "Action"}`.
public struct TMDBGenre: Codable, Sendable, Hashable {
    /// The TMDB genre id.
    public var id: Int
    /// The genre name in the requested language.
    public var name: String

    /// Creates a genre.
    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    enum CodingKeys: String, CodingKey {
        case id
        case name
    }

    /// Decodes tolerantly: a missing or `null` field becomes `0` / `""`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id, default: 0)
        name = try container.decode(String.self, forKey: .name, default: "")
    }
}
