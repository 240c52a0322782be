/// The body of `GET /movie/{id}/videos` (and `videos` appended to details).
public struct TMDBVideoList: Decodable, Sendable, Hashable {
    public var results: [TMDBVideo]

    enum CodingKeys: String, CodingKey { case results }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        results = try container.decode([TMDBVideo].self, forKey: .results, default: [])
    }
}

/// A trailer, teaser, clip … hosted on a video site.
public struct TMDBVideo: Decodable, Sendable, Hashable {
    public var name: String
    /// `YouTube`, `Vimeo`, …
    public var site: String
    /// The site's id of the video (a YouTube `v=` value).
    public var key: String
    /// `Trailer`, `Teaser`, `Clip`, `Featurette`, `Behind the Scenes`, …
    public var type: String
    public var official: Bool
    /// ISO 8601, e.g. `2016-03-05T02:03:14.000Z`, or `""`.
    public var publishedAt: String

    enum CodingKeys: String, CodingKey {
        case name, site, key, type, official
        case publishedAt = "published_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name, default: "")
        site = try container.decode(String.self, forKey: .site, default: "")
        key = try container.decode(String.self, forKey: .key, default: "")
        type = try container.decode(String.self, forKey: .type, default: "")
        official = try container.decode(Bool.self, forKey: .official, default: false)
        publishedAt = try container.decode(String.self, forKey: .publishedAt, default: "")
    }
}
