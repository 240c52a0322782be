#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC
import MovieCore
import TMDB

/// `movies.discover`: movies by filters (TMDB `/discover/movie`). Paired filters are checked here, since
/// TMDB silently ignores half a pair: such a request gets -32010 and nothing is sent upstream.
public struct MoviesDiscover: MovieMethod {
    public static let name = "movies.discover"

    public struct Params: Decodable, Sendable {
        public var genreIds: [Int]?
        public var genreMatch: DiscoverFilter.GenreMatch?
        public var withoutGenreIds: [Int]?
        public var year: Int?
        public var releasedFrom: String?
        public var releasedTo: String?
        public var minRating: Double?
        public var minVotes: Int?
        public var minRuntime: Int?
        public var maxRuntime: Int?
        public var originalLanguage: String?
        public var sortBy: String?
        public var watchProviderIds: [Int]?
        public var watchRegion: String?
        public var certification: String?
        public var certificationCountry: String?
        public var page: Int?
        public var language: String?
        public var region: String?
        public var posterSize: String?
        public var backdropSize: String?
        public var cachePolicy: CachePolicy?
    }

    public typealias Result = MoviePageResult

    /// TMDB has 19 genres; providers are a handful per query.
    static let maxIDs = 20

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let filter = try self.filter(params)
        let problems = filter.problems
        guard problems.isEmpty else { throw MovieError.validationFailed(problems) }
        let catalogRequest = CatalogRequest.discover(
            filter, page: try CatalogParams.page(params.page), language: try CatalogParams.language(params.language),
            region: try CatalogParams.region(params.region))
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        return try await server.moviePage(catalogRequest, policy: params.cachePolicy, sizes: sizes)
    }

    static func filter(_ params: Params) throws -> DiscoverFilter {
        var filter = DiscoverFilter()
        filter.genreIDs = try ids(params.genreIds, field: "genreIds")
        filter.genreMatch = params.genreMatch ?? .all
        filter.withoutGenreIDs = try ids(params.withoutGenreIds, field: "withoutGenreIds")
        filter.year = try CatalogParams.year(params.year, field: "year")
        filter.releasedFrom = try date(params.releasedFrom, field: "releasedFrom")
        filter.releasedTo = try date(params.releasedTo, field: "releasedTo")
        if let rating = params.minRating {
            guard rating.isFinite, (0...10).contains(rating) else {
                throw ResponseError.invalidParams("minRating must be between 0 and 10", field: "minRating")
            }
            filter.minRating = rating
        }
        filter.minVotes = try bounded(params.minVotes, 0...100_000_000, field: "minVotes")
        filter.minRuntime = try bounded(params.minRuntime, 0...100_000, field: "minRuntime")
        filter.maxRuntime = try bounded(params.maxRuntime, 0...100_000, field: "maxRuntime")
        if let language = params.originalLanguage {
            guard language.count == 2, language.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
                throw ResponseError.invalidParams(
                    "originalLanguage must be an ISO 639-1 code like \"en\"", field: "originalLanguage")
            }
            filter.originalLanguage = language
        }
        if let sortBy = params.sortBy {
            guard DiscoverMovieQuery.sortOrders.contains(sortBy) else {
                throw ResponseError.invalidParams(
                    "sortBy must be one of \(DiscoverMovieQuery.sortOrders.joined(separator: ", "))", field: "sortBy")
            }
            filter.sortBy = sortBy
        }
        filter.watchProviderIDs = try ids(params.watchProviderIds, field: "watchProviderIds")
        filter.watchRegion = try CatalogParams.country(params.watchRegion, field: "watchRegion")
        if let certification = params.certification {
            guard (1...20).contains(certification.count),
                  certification.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || " +-".contains($0)) })
            else {
                throw ResponseError.invalidParams(
                    "certification must be a rating such as \"PG-13\" (letters, digits, space, + and -)",
                    field: "certification")
            }
            filter.certification = certification
        }
        filter.certificationCountry = try CatalogParams.country(
            params.certificationCountry, field: "certificationCountry")
        return filter
    }

    /// Positive, at most ``maxIDs``, duplicates dropped (order kept).
    static func ids(_ ids: [Int]?, field: String) throws -> [Int] {
        guard let ids else { return [] }
        guard ids.count <= maxIDs else {
            throw ResponseError.invalidParams("\(field) must hold at most \(maxIDs) ids", field: field)
        }
        var seen = Set<Int>()
        var unique: [Int] = []
        for (index, id) in ids.enumerated() {
            guard id > 0 else {
                throw ResponseError.invalidParams(
                    "\(field)[\(index)] must be a positive id", field: "\(field)[\(index)]")
            }
            if seen.insert(id).inserted { unique.append(id) }
        }
        return unique
    }

    static func bounded(_ value: Int?, _ range: ClosedRange<Int>, field: String) throws -> Int? {
        guard let value else { return nil }
        guard range.contains(value) else {
            throw ResponseError.invalidParams(
                "\(field) must be between \(range.lowerBound) and \(range.upperBound)", field: field)
        }
        return value
    }

    /// A real calendar date, `YYYY-MM-DD`.
    static func date(_ text: String?, field: String) throws -> String? {
        guard let text else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.map { Int($0) }
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let year = numbers[0], let month = numbers[1], let day = numbers[2],
              (1800...2200).contains(year), (1...12).contains(month),
              day >= 1, day <= daysIn(month: month, year: year)
        else {
            throw ResponseError.invalidParams("\(field) must be a date YYYY-MM-DD", field: field)
        }
        return text
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
