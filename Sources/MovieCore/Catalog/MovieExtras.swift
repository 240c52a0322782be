#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An actor in a movie's cast, in billing order.
public struct CastCredit: Codable, Sendable, Hashable {
    public var personID: Int
    public var name: String
    public var character: String
    /// Billing order, 0 first.
    public var order: Int
    public var profilePath: String?

    public init(personID: Int, name: String, character: String, order: Int, profilePath: String?) {
        self.personID = personID
        self.name = name
        self.character = character
        self.order = order
        self.profilePath = profilePath
    }
}

/// A member of a movie's crew: `Director` in `Directing`, …
public struct CrewCredit: Codable, Sendable, Hashable {
    public var personID: Int
    public var name: String
    public var job: String
    public var department: String
    public var profilePath: String?

    public init(personID: Int, name: String, job: String, department: String, profilePath: String?) {
        self.personID = personID
        self.name = name
        self.job = job
        self.department = department
        self.profilePath = profilePath
    }
}

/// Who is in a movie and who made it. Cast in billing order.
public struct MovieCredits: Codable, Sendable, Hashable {
    public var cast: [CastCredit]
    public var crew: [CrewCredit]

    public init(cast: [CastCredit], crew: [CrewCredit]) {
        self.cast = cast.sorted { $0.order < $1.order }
        self.crew = crew
    }
}

/// A trailer, teaser or clip on a video site.
public struct Video: Codable, Sendable, Hashable {
    public var name: String
    public var site: String
    public var key: String
    public var type: String
    public var official: Bool
    public var publishedAt: String

    public init(name: String, site: String, key: String, type: String, official: Bool, publishedAt: String) {
        self.name = name
        self.site = site
        self.key = key
        self.type = type
        self.official = official
        self.publishedAt = publishedAt
    }

    /// The page to watch it: YouTube and Vimeo are known; nil for other sites.
    public var url: String? {
        guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        switch site.lowercased() {
        case "youtube": return "https://www.youtube.com/watch?v=" + key
        case "vimeo": return "https://vimeo.com/" + key
        default: return nil
        }
    }

    /// Trailers first; then official before unofficial, newest first; otherwise as TMDB listed them.
    public static func ordered(_ videos: [Video]) -> [Video] {
        videos.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            if (a.type == "Trailer") != (b.type == "Trailer") { return a.type == "Trailer" }
            if a.official != b.official { return a.official }
            if a.publishedAt != b.publishedAt { return a.publishedAt > b.publishedAt }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// A streaming service, shop or channel (JustWatch's data, through TMDB).
public struct WatchProvider: Codable, Sendable, Hashable {
    public var providerID: Int
    public var name: String
    public var logoPath: String?

    public init(providerID: Int, name: String, logoPath: String?) {
        self.providerID = providerID
        self.name = name
        self.logoPath = logoPath
    }
}

/// Where a movie can be watched in one country, by kind of offer; each list empty when there is none.
public struct WatchOptions: Codable, Sendable, Hashable {
    public var link: String
    public var flatrate: [WatchProvider]
    public var rent: [WatchProvider]
    public var buy: [WatchProvider]
    public var free: [WatchProvider]
    public var ads: [WatchProvider]

    public init(
        link: String, flatrate: [WatchProvider], rent: [WatchProvider], buy: [WatchProvider], free: [WatchProvider],
        ads: [WatchProvider]
    ) {
        self.link = link
        self.flatrate = flatrate
        self.rent = rent
        self.buy = buy
        self.free = free
        self.ads = ads
    }

    public static let none = WatchOptions(link: "", flatrate: [], rent: [], buy: [], free: [], ads: [])
}

/// One release in one country, with its certification (rating).
public struct Release: Codable, Sendable, Hashable {
    public var certification: String
    /// 1 premiere, 2 limited theatrical, 3 theatrical, 4 digital, 5 physical, 6 TV.
    public var type: Int
    public var date: String

    public init(certification: String, type: Int, date: String) {
        self.certification = certification
        self.type = type
        self.date = date
    }

    /// The rating a country gives: its theatrical release's certification, else the first one given.
    public static func certification(in releases: [Release]) -> String? {
        let rated = releases.filter { !$0.certification.isEmpty }
        return (rated.first { $0.type == 3 } ?? rated.first)?.certification
    }
}

/// A movie's ids elsewhere.
public struct ExternalIDs: Codable, Sendable, Hashable {
    public var imdbId: String?
    public var wikidataId: String?
    public var facebookId: String?
    public var instagramId: String?
    public var twitterId: String?

    public init(
        imdbId: String?, wikidataId: String? = nil, facebookId: String? = nil, instagramId: String? = nil,
        twitterId: String? = nil
    ) {
        self.imdbId = imdbId
        self.wikidataId = wikidataId
        self.facebookId = facebookId
        self.instagramId = instagramId
        self.twitterId = twitterId
    }
}

/// What `movies.details` can add, all fetched in one TMDB request (`append_to_response`).
public enum DetailsPart: String, Codable, Sendable, CaseIterable, Hashable {
    case credits, videos, watchProviders, releaseDates, externalIds

    /// The part's name in TMDB's `append_to_response`.
    public var tmdbName: String {
        switch self {
        case .credits: "credits"
        case .videos: "videos"
        case .watchProviders: "watch/providers"
        case .releaseDates: "release_dates"
        case .externalIds: "external_ids"
        }
    }
}

/// The `{minimum, maximum}` release dates a now-playing or upcoming list covers.
public struct DateRange: Codable, Sendable, Hashable {
    public var minimum: String
    public var maximum: String

    public init(minimum: String, maximum: String) {
        self.minimum = minimum
        self.maximum = maximum
    }
}
