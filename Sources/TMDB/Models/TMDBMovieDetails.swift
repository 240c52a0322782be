/// The body of `GET /movie/{id}` and `GET /movie/latest`.
///
/// Decoding tolerates the near-empty `/movie/latest` record: `null`, `""`, `0` and `[]` everywhere and
/// missing keys all decode, to `0` / `""` / `[]` / `false` / `nil`.
public struct TMDBMovieDetails: Decodable, Sendable, Hashable {
    /// The TMDB movie id.
    public var id: Int
    /// The title in the requested language.
    public var title: String
    /// The title in the original language.
    public var originalTitle: String
    /// ISO 639-1 code of the original language.
    public var originalLanguage: String
    /// The plot summary (may be empty).
    public var overview: String
    /// `YYYY-MM-DD`, or `""` when unknown.
    public var releaseDate: String
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
    /// Poster file path, or `nil`.
    public var posterPath: String?
    /// Backdrop file path, or `nil`.
    public var backdropPath: String?
    /// The movie's genres.
    public var genres: [TMDBGenre]
    /// The tagline (may be empty).
    public var tagline: String
    /// Running time in minutes; `nil` when `null`/absent, and TMDB also sends `0` for "unknown".
    public var runtime: Int?
    /// Release status, e.g. `Released` or `Post Production`.
    public var status: String
    /// The official homepage URL, or `""`.
    public var homepage: String
    /// The IMDb id such as `tt0137523`, or `nil`.
    public var imdbId: String?
    /// Budget in US dollars (`0` when unknown).
    public var budget: Int
    /// Revenue in US dollars (`0` when unknown).
    public var revenue: Int
    /// Languages spoken in the movie.
    public var spokenLanguages: [TMDBSpokenLanguage]
    /// Production companies.
    public var productionCompanies: [TMDBProductionCompany]
    /// Production countries.
    public var productionCountries: [TMDBProductionCountry]
    /// ISO 3166-1 codes of the countries of origin (a newer field; `[]` when absent).
    public var originCountry: [String]
    /// The collection the movie belongs to, or `nil`.
    public var belongsToCollection: TMDBCollection?

    // Parts appended with `append_to_response`; nil when not asked for.
    public var credits: TMDBCredits?
    public var videos: TMDBVideoList?
    public var watchProviders: TMDBWatchProviders?
    public var releaseDates: TMDBReleaseDates?
    public var externalIds: TMDBExternalIDs?

    /// Creates a details record; every field but `id` has a neutral default.
    public init(
        id: Int,
        title: String = "",
        originalTitle: String = "",
        originalLanguage: String = "",
        overview: String = "",
        releaseDate: String = "",
        voteAverage: Double = 0,
        voteCount: Int = 0,
        popularity: Double = 0,
        adult: Bool = false,
        video: Bool = false,
        posterPath: String? = nil,
        backdropPath: String? = nil,
        genres: [TMDBGenre] = [],
        tagline: String = "",
        runtime: Int? = nil,
        status: String = "",
        homepage: String = "",
        imdbId: String? = nil,
        budget: Int = 0,
        revenue: Int = 0,
        spokenLanguages: [TMDBSpokenLanguage] = [],
        productionCompanies: [TMDBProductionCompany] = [],
        productionCountries: [TMDBProductionCountry] = [],
        originCountry: [String] = [],
        belongsToCollection: TMDBCollection? = nil
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.originalLanguage = originalLanguage
        self.overview = overview
        self.releaseDate = releaseDate
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.popularity = popularity
        self.adult = adult
        self.video = video
        self.posterPath = posterPath
        self.backdropPath = backdropPath
        self.genres = genres
        self.tagline = tagline
        self.runtime = runtime
        self.status = status
        self.homepage = homepage
        self.imdbId = imdbId
        self.budget = budget
        self.revenue = revenue
        self.spokenLanguages = spokenLanguages
        self.productionCompanies = productionCompanies
        self.productionCountries = productionCountries
        self.originCountry = originCountry
        self.belongsToCollection = belongsToCollection
    }

    enum CodingKeys: String, CodingKey {
        case id
        case title
        case originalTitle = "original_title"
        case originalLanguage = "original_language"
        case overview
        case releaseDate = "release_date"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case popularity
        case adult
        case video
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
        case genres
        case tagline
        case runtime
        case status
        case homepage
        case imdbId = "imdb_id"
        case budget
        case revenue
        case spokenLanguages = "spoken_languages"
        case productionCompanies = "production_companies"
        case productionCountries = "production_countries"
        case originCountry = "origin_country"
        case belongsToCollection = "belongs_to_collection"
        case credits, videos
        case watchProviders = "watch/providers"
        case releaseDates = "release_dates"
        case externalIds = "external_ids"
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
        voteAverage = try container.decode(Double.self, forKey: .voteAverage, default: 0)
        voteCount = try container.decode(Int.self, forKey: .voteCount, default: 0)
        popularity = try container.decode(Double.self, forKey: .popularity, default: 0)
        adult = try container.decode(Bool.self, forKey: .adult, default: false)
        video = try container.decode(Bool.self, forKey: .video, default: false)
        posterPath = try container.decodeIfPresent(String.self, forKey: .posterPath)
        backdropPath = try container.decodeIfPresent(String.self, forKey: .backdropPath)
        genres = try container.decode([TMDBGenre].self, forKey: .genres, default: [])
        tagline = try container.decode(String.self, forKey: .tagline, default: "")
        runtime = try container.decodeIfPresent(Int.self, forKey: .runtime)
        status = try container.decode(String.self, forKey: .status, default: "")
        homepage = try container.decode(String.self, forKey: .homepage, default: "")
        imdbId = try container.decodeIfPresent(String.self, forKey: .imdbId)
        budget = try container.decode(Int.self, forKey: .budget, default: 0)
        revenue = try container.decode(Int.self, forKey: .revenue, default: 0)
        spokenLanguages = try container.decode([TMDBSpokenLanguage].self, forKey: .spokenLanguages, default: [])
        productionCompanies = try container.decode(
            [TMDBProductionCompany].self, forKey: .productionCompanies, default: []
        )
        productionCountries = try container.decode(
            [TMDBProductionCountry].self, forKey: .productionCountries, default: []
        )
        originCountry = try container.decode([String].self, forKey: .originCountry, default: [])
        belongsToCollection = try container.decodeIfPresent(TMDBCollection.self, forKey: .belongsToCollection)
        credits = try container.decodeIfPresent(TMDBCredits.self, forKey: .credits)
        videos = try container.decodeIfPresent(TMDBVideoList.self, forKey: .videos)
        watchProviders = try container.decodeIfPresent(TMDBWatchProviders.self, forKey: .watchProviders)
        releaseDates = try container.decodeIfPresent(TMDBReleaseDates.self, forKey: .releaseDates)
        externalIds = try container.decodeIfPresent(TMDBExternalIDs.self, forKey: .externalIds)
    }
}
