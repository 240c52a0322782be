/// One movie in a list response (popular, discover, search), in TMDB's list-item shape.
public struct TMDBMovieListItem: Codable, Sendable, Hashable {
    /// The TMDB movie id.
    public var id: Int
    /// The title in the requested language.
    public var title: String
    /// The title in the original language.
    public var originalTitle: String
    /// ISO 639-1 code of the original language, e.g. `en`.
    public var originalLanguage: String
    /// The plot summary (may be empty).
    public var overview: String
    /// `YYYY-MM-DD`, or `""` when unknown.
    public var releaseDate: String
    /// Ids of the movie's genres.
    public var genreIds: [Int]
    /// Average vote, 0–10.
    public var voteAverage: Double
    /// Number of votes.
    public var voteCount: Int
    /// TMDB's popularity score.
    public var popularity: Double
    /// Whether the movie is adult content.
    public var adult: Bool
    /// Whether the record is a video rather than a film.
    public var video: Bool
    /// Poster file path such as `/abc.jpg`; build a URL with ``TMDBClient/imageURL(path:size:)``.
    public var posterPath: String?
    /// Backdrop file path such as `/abc.jpg`.
    public var backdropPath: String?

    /// Creates a list item; every field has a neutral default.
    public init(
        id: Int,
        title: String = "",
        originalTitle: String = "",
        originalLanguage: String = "",
        overview: String = "",
        releaseDate: String = "",
        genreIds: [Int] = [],
        voteAverage: Double = 0,
        voteCount: Int = 0,
        popularity: Double = 0,
        adult: Bool = false,
        video: Bool = false,
        posterPath: String? = nil,
        backdropPath: String? = nil
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.originalLanguage = originalLanguage
        self.overview = overview
        self.releaseDate = releaseDate
        self.genreIds = genreIds
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.popularity = popularity
        self.adult = adult
        self.video = video
        self.posterPath = posterPath
        self.backdropPath = backdropPath
    }

    enum CodingKeys: String, CodingKey {
        case id
        case title
        case originalTitle = "original_title"
        case originalLanguage = "original_language"
        case overview
        case releaseDate = "release_date"
        case genreIds = "genre_ids"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case popularity
        case adult
        case video
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
    }

    /// Decodes tolerantly: a missing or `null` field becomes `0` / `""` / `[]` / `false` / `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id, default: 0)
        title = try container.decode(String.self, forKey: .title, default: "")
        originalTitle = try container.decode(String.self, forKey: .originalTitle, default: "")
        originalLanguage = try container.decode(String.self, forKey: .originalLanguage, default: "")
        overview = try container.decode(String.self, forKey: .overview, default: "")
        releaseDate = try container.decode(String.self, forKey: .releaseDate, default: "")
        genreIds = try container.decode([Int].self, forKey: .genreIds, default: [])
        voteAverage = try container.decode(Double.self, forKey: .voteAverage, default: 0)
        voteCount = try container.decode(Int.self, forKey: .voteCount, default: 0)
        popularity = try container.decode(Double.self, forKey: .popularity, default: 0)
        adult = try container.decode(Bool.self, forKey: .adult, default: false)
        video = try container.decode(Bool.self, forKey: .video, default: false)
        posterPath = try container.decodeIfPresent(String.self, forKey: .posterPath)
        backdropPath = try container.decodeIfPresent(String.self, forKey: .backdropPath)
    }
}
