/// A production country: `{"iso_3166_1", "name"}`.
public struct TMDBProductionCountry: Codable, Sendable, Hashable {
    /// ISO 3166-1 code, e.g. `US`.
    public var iso31661: String
    /// The country's English name.
    public var name: String

    /// Creates a production country.
    public init(iso31661: String, name: String = "") {
        self.iso31661 = iso31661
        self.name = name
    }

    enum CodingKeys: String, CodingKey {
        case iso31661 = "iso_3166_1"
        case name
    }

    /// Decodes tolerantly: a missing or `null` field becomes `""`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iso31661 = try container.decode(String.self, forKey: .iso31661, default: "")
        name = try container.decode(String.self, forKey: .name, default: "")
    }
}
