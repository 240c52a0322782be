/// One person in `GET /search/person` results. `known_for` (movies and TV mixed) is not read.
public struct TMDBPersonListItem: Decodable, Sendable, Hashable {
    public var id: Int
    public var name: String
    public var knownForDepartment: String
    public var profilePath: String?
    public var popularity: Double
    public var adult: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, popularity, adult
        case knownForDepartment = "known_for_department"
        case profilePath = "profile_path"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id, default: 0)
        name = try container.decode(String.self, forKey: .name, default: "")
        knownForDepartment = try container.decode(String.self, forKey: .knownForDepartment, default: "")
        profilePath = try container.decodeIfPresent(String.self, forKey: .profilePath)
        popularity = try container.decode(Double.self, forKey: .popularity, default: 0)
        adult = try container.decode(Bool.self, forKey: .adult, default: false)
    }
}

/// The body of `GET /person/{id}`, with `movie_credits` when it was appended.
public struct TMDBPersonDetails: Decodable, Sendable, Hashable {
    public var id: Int
    public var name: String
    public var biography: String
    /// `YYYY-MM-DD`, or nil.
    public var birthday: String?
    public var deathday: String?
    public var placeOfBirth: String?
    public var knownForDepartment: String
    public var profilePath: String?
    public var movieCredits: TMDBPersonMovieCredits?

    enum CodingKeys: String, CodingKey {
        case id, name, biography, birthday, deathday
        case placeOfBirth = "place_of_birth"
        case knownForDepartment = "known_for_department"
        case profilePath = "profile_path"
        case movieCredits = "movie_credits"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id, default: 0)
        name = try container.decode(String.self, forKey: .name, default: "")
        biography = try container.decode(String.self, forKey: .biography, default: "")
        birthday = try container.decodeIfPresent(String.self, forKey: .birthday)
        deathday = try container.decodeIfPresent(String.self, forKey: .deathday)
        placeOfBirth = try container.decodeIfPresent(String.self, forKey: .placeOfBirth)
        knownForDepartment = try container.decode(String.self, forKey: .knownForDepartment, default: "")
        profilePath = try container.decodeIfPresent(String.self, forKey: .profilePath)
        movieCredits = try container.decodeIfPresent(TMDBPersonMovieCredits.self, forKey: .movieCredits)
    }
}

/// The body of `GET /person/{id}/movie_credits`: movies in the list-item shape, each with the role.
public struct TMDBPersonMovieCredits: Decodable, Sendable, Hashable {
    public var cast: [TMDBPersonCredit]
    public var crew: [TMDBPersonCredit]

    enum CodingKeys: String, CodingKey { case cast, crew }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cast = try container.decode([TMDBPersonCredit].self, forKey: .cast, default: [])
        crew = try container.decode([TMDBPersonCredit].self, forKey: .crew, default: [])
    }
}

/// One movie of a filmography: the list item's fields plus `character` (cast) or `job`/`department` (crew).
public struct TMDBPersonCredit: Decodable, Sendable, Hashable {
    public var movie: TMDBMovieListItem
    public var character: String?
    public var job: String?
    public var department: String?

    enum CodingKeys: String, CodingKey { case character, job, department }

    public init(from decoder: any Decoder) throws {
        movie = try TMDBMovieListItem(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        character = try container.decodeIfPresent(String.self, forKey: .character)
        job = try container.decodeIfPresent(String.self, forKey: .job)
        department = try container.decodeIfPresent(String.self, forKey: .department)
    }
}
