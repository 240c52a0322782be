/// A language spoken in a movie: `{"english_name", "iso_639_1", "name"}`.
public struct TMDBSpokenLanguage: Codable, Sendable, Hashable {
    /// The language's English name (absent in older captures → `""`).
    public var englishName: String
    /// ISO 639-1 code, e.g. `en`.
    public var iso6391: String
    /// The language's own name for itself.
    public var name: String

    /// Creates a spoken language.
    public init(englishName: String = "", iso6391: String, name: String = "") {
        self.englishName = englishName
        self.iso6391 = iso6391
        self.name = name
    }

    enum CodingKeys: String, CodingKey {
        case englishName = "english_name"
        case iso6391 = "iso_639_1"
        case name
    }

    /// Decodes tolerantly: a missing or `null` field becomes `""`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        englishName = try container.decode(String.self, forKey: .englishName, default: "")
        iso6391 = try container.decode(String.self, forKey: .iso6391, default: "")
        name = try container.decode(String.self, forKey: .name, default: "")
    }
}
