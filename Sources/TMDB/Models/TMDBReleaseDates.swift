/// The body of `GET /movie/{id}/release_dates` (and `release_dates` appended to details).
public struct TMDBReleaseDates: Decodable, Sendable, Hashable {
    public var results: [TMDBCountryReleases]

    enum CodingKeys: String, CodingKey { case results }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        results = try container.decode([TMDBCountryReleases].self, forKey: .results, default: [])
    }
}

/// One country's releases.
public struct TMDBCountryReleases: Decodable, Sendable, Hashable {
    /// ISO 3166-1, e.g. `US`.
    public var country: String
    public var releaseDates: [TMDBReleaseDate]

    enum CodingKeys: String, CodingKey {
        case country = "iso_3166_1"
        case releaseDates = "release_dates"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        country = try container.decode(String.self, forKey: .country, default: "")
        releaseDates = try container.decode([TMDBReleaseDate].self, forKey: .releaseDates, default: [])
    }
}

/// One release: its certification (rating) and type (1 premiere, 2 limited theatrical, 3 theatrical,
/// 4 digital, 5 physical, 6 TV).
public struct TMDBReleaseDate: Decodable, Sendable, Hashable {
    /// e.g. `R`, `FSK 18`, or `""`.
    public var certification: String
    public var type: Int
    /// ISO 8601.
    public var releaseDate: String

    enum CodingKeys: String, CodingKey {
        case certification, type
        case releaseDate = "release_date"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        certification = try container.decode(String.self, forKey: .certification, default: "")
        type = try container.decode(Int.self, forKey: .type, default: 0)
        releaseDate = try container.decode(String.self, forKey: .releaseDate, default: "")
    }
}
