#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A person as search lists them.
public struct Person: Codable, Sendable, Hashable {
    public var id: Int
    public var name: String
    /// e.g. `Acting`, `Directing`.
    public var knownForDepartment: String
    public var profilePath: String?
    public var popularity: Double

    public init(id: Int, name: String, knownForDepartment: String, profilePath: String?, popularity: Double) {
        self.id = id
        self.name = name
        self.knownForDepartment = knownForDepartment
        self.profilePath = profilePath
        self.popularity = popularity
    }
}

/// One page of people.
public struct PersonPage: Codable, Sendable, Hashable {
    public var page: Int
    public var totalPages: Int
    public var totalResults: Int
    public var results: [Person]

    public init(page: Int, totalPages: Int, totalResults: Int, results: [Person]) {
        self.page = page
        self.totalPages = min(max(totalPages, 0), MoviePage.maxPage)
        self.totalResults = max(totalResults, 0)
        self.results = results
    }
}

/// One movie of a filmography and the person's part in it: `character` (cast) or `job` (crew).
public struct PersonMovieCredit: Codable, Sendable, Hashable {
    public var movie: MovieSummary
    public var character: String?
    public var job: String?
    public var department: String?

    public init(movie: MovieSummary, character: String?, job: String?, department: String?) {
        self.movie = movie
        self.character = character
        self.job = job
        self.department = department
    }

    /// Newest first; movies without a date last, in the order given.
    public static func newestFirst(_ credits: [PersonMovieCredit]) -> [PersonMovieCredit] {
        credits.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.movie.releaseDate, rhs.element.movie.releaseDate)
            if a.isEmpty != b.isEmpty { return !a.isEmpty }
            if a != b { return a > b }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// Everything a person's page shows, filmography newest first.
public struct PersonDetails: Codable, Sendable, Hashable {
    public var person: Person
    public var biography: String
    public var birthday: String?
    public var deathday: String?
    public var placeOfBirth: String?
    public var cast: [PersonMovieCredit]
    public var crew: [PersonMovieCredit]

    public init(
        person: Person, biography: String, birthday: String?, deathday: String?, placeOfBirth: String?,
        cast: [PersonMovieCredit], crew: [PersonMovieCredit]
    ) {
        self.person = person
        self.biography = biography
        self.birthday = birthday
        self.deathday = deathday
        self.placeOfBirth = placeOfBirth
        self.cast = PersonMovieCredit.newestFirst(cast)
        self.crew = PersonMovieCredit.newestFirst(crew)
    }
}
