/// A production company: `{"id", "name", "logo_path", "origin_country"}`.
public struct TMDBProductionCompany: Codable, Sendable, Hashable {
    /// The TMDB company id.
    public var id: Int
    /// The company name.
    public var name: String
    /// Logo file path (a `.png`), or `nil`.
    public var logoPath: String?
    /// ISO 3166-1 code, possibly `""`.
    public var originCountry: String

    /// Creates a production company.
    public init(id: Int, name: String = "", logoPath: String? = nil, originCountry: String = "") {
        self.id = id
        self.name = name
        self.logoPath = logoPath
        self.originCountry = originCountry
    }

    enum CodingKeys: String, CodingKey {
        case id
        case name
        case logoPath = "logo_path"
        case originCountry = "origin_country"
    }

    /// Decodes tolerantly: a missing or `null` field becomes `0` / `""` / `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id, default: 0)
        name = try container.decode(String.self, forKey: .name, default: "")
        logoPath = try container.decodeIfPresent(String.self, forKey: .logoPath)
        originCountry = try container.decode(String.self, forKey: .originCountry, default: "")
    }
}
