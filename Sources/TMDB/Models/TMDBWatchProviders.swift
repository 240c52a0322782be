/// The body of `GET /movie/{id}/watch/providers` (and `watch/providers` appended to details): per
/// ISO 3166-1 country, where the movie streams, rents or sells. The data is JustWatch's, through TMDB.
public struct TMDBWatchProviders: Decodable, Sendable, Hashable {
    public var results: [String: TMDBWatchProviderCountry]

    enum CodingKeys: String, CodingKey { case results }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        results = try container.decode([String: TMDBWatchProviderCountry].self, forKey: .results, default: [:])
    }
}

/// One country's offers; a kind TMDB has none of is absent (decoded as `[]`).
public struct TMDBWatchProviderCountry: Decodable, Sendable, Hashable {
    /// TMDB's watch page for the movie in that country.
    public var link: String
    public var flatrate: [TMDBWatchProvider]
    public var rent: [TMDBWatchProvider]
    public var buy: [TMDBWatchProvider]
    public var free: [TMDBWatchProvider]
    public var ads: [TMDBWatchProvider]

    enum CodingKeys: String, CodingKey { case link, flatrate, rent, buy, free, ads }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        link = try container.decode(String.self, forKey: .link, default: "")
        flatrate = try container.decode([TMDBWatchProvider].self, forKey: .flatrate, default: [])
        rent = try container.decode([TMDBWatchProvider].self, forKey: .rent, default: [])
        buy = try container.decode([TMDBWatchProvider].self, forKey: .buy, default: [])
        free = try container.decode([TMDBWatchProvider].self, forKey: .free, default: [])
        ads = try container.decode([TMDBWatchProvider].self, forKey: .ads, default: [])
    }
}

/// A streaming service, shop or channel.
public struct TMDBWatchProvider: Decodable, Sendable, Hashable {
    public var providerId: Int
    public var providerName: String
    public var logoPath: String?
    /// Lower is shown first.
    public var displayPriority: Int

    enum CodingKeys: String, CodingKey {
        case providerId = "provider_id"
        case providerName = "provider_name"
        case logoPath = "logo_path"
        case displayPriority = "display_priority"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        providerId = try container.decode(Int.self, forKey: .providerId, default: 0)
        providerName = try container.decode(String.self, forKey: .providerName, default: "")
        logoPath = try container.decodeIfPresent(String.self, forKey: .logoPath)
        displayPriority = try container.decode(Int.self, forKey: .displayPriority, default: Int.max)
    }
}
