/// The body of `GET /movie/{id}/credits` (and `credits` appended to details): cast in billing order
/// (`order`), crew by department.
public struct TMDBCredits: Decodable, Sendable, Hashable {
    /// The movie id; absent when appended to details.
    public var id: Int
    public var cast: [TMDBCastMember]
    public var crew: [TMDBCrewMember]

    enum CodingKeys: String, CodingKey { case id, cast, crew }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id, default: 0)
        cast = try container.decode([TMDBCastMember].self, forKey: .cast, default: [])
        crew = try container.decode([TMDBCrewMember].self, forKey: .crew, default: [])
    }
}

/// One actor of a movie's cast.
public struct TMDBCastMember: Decodable, Sendable, Hashable {
    /// The person's TMDB id.
    public var id: Int
    public var name: String
    public var character: String
    /// Billing order, 0 first.
    public var order: Int
    public var profilePath: String?
    public var knownForDepartment: String

    enum CodingKeys: String, CodingKey {
        case id, name, character, order
        case profilePath = "profile_path"
        case knownForDepartment = "known_for_department"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id, default: 0)
        name = try container.decode(String.self, forKey: .name, default: "")
        character = try container.decode(String.self, forKey: .character, default: "")
        order = try container.decode(Int.self, forKey: .order, default: Int.max)
        profilePath = try container.decodeIfPresent(String.self, forKey: .profilePath)
        knownForDepartment = try container.decode(String.self, forKey: .knownForDepartment, default: "")
    }
}

/// One member of a movie's crew.
public struct TMDBCrewMember: Decodable, Sendable, Hashable {
    /// The person's TMDB id.
    public var id: Int
    public var name: String
    /// e.g. `Director`.
    public var job: String
    /// e.g. `Directing`.
    public var department: String
    public var profilePath: String?

    enum CodingKeys: String, CodingKey {
        case id, name, job, department
        case profilePath = "profile_path"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id, default: 0)
        name = try container.decode(String.self, forKey: .name, default: "")
        job = try container.decode(String.self, forKey: .job, default: "")
        department = try container.decode(String.self, forKey: .department, default: "")
        profilePath = try container.decodeIfPresent(String.self, forKey: .profilePath)
    }
}
