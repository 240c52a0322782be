/// The body of `GET /movie/{id}/external_ids` (and `external_ids` appended to details).
public struct TMDBExternalIDs: Decodable, Sendable, Hashable {
    public var imdbId: String?
    public var wikidataId: String?
    public var facebookId: String?
    public var instagramId: String?
    public var twitterId: String?

    enum CodingKeys: String, CodingKey {
        case imdbId = "imdb_id"
        case wikidataId = "wikidata_id"
        case facebookId = "facebook_id"
        case instagramId = "instagram_id"
        case twitterId = "twitter_id"
    }
}

/// The body of `GET /find/{id}?external_source=imdb_id`: what an external id names. Only the movies are
/// read; TMDB also sends `person_results`, `tv_results` and others.
public struct TMDBFindResults: Decodable, Sendable, Hashable {
    public var movieResults: [TMDBMovieListItem]

    enum CodingKeys: String, CodingKey { case movieResults = "movie_results" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        movieResults = try container.decode([TMDBMovieListItem].self, forKey: .movieResults, default: [])
    }
}
