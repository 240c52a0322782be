#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC
import MovieCore
import TMDB

/// A movie as lists send it: the summary's fields plus image URLs built for the requested sizes. Optional
/// members are sent as null rather than left out: clients check one shape.
public struct MovieSummaryWire: WireEncodable, Sendable, Equatable {
    public var movie: MovieSummary
    public var sizes: ImageSizes

    public init(_ movie: MovieSummary, sizes: ImageSizes) {
        self.movie = movie
        self.sizes = sizes
    }

    public func write(to writer: inout JSONWriter) {
        writer.object { writer in writeMembers(to: &writer) }
    }

    /// The members alone, for results that add their own beside them (details).
    func writeMembers(to writer: inout JSONWriter) {
        Self.writeFields(movie, to: &writer, sizes: sizes)
    }

    /// The summary's fields; with `sizes` nil, without the image members (`movies.latest`).
    static func writeFields(_ movie: MovieSummary, to writer: inout JSONWriter, sizes: ImageSizes?) {
        writer.member("id", movie.id)
        writer.member("title", movie.title)
        writer.member("originalTitle", movie.originalTitle)
        writer.member("overview", movie.overview)
        writer.member("releaseDate", movie.releaseDate)
        writer.member("genreIds", movie.genreIds)
        writer.member("voteAverage", movie.voteAverage)
        writer.member("voteCount", movie.voteCount)
        writer.member("popularity", movie.popularity)
        writer.member("adult", movie.adult)
        writer.member("originalLanguage", movie.originalLanguage)
        guard let sizes else { return }
        writer.member("posterPath", movie.posterPath)
        writer.member("posterUrl", TMDBClient.imageURL(path: movie.posterPath, size: sizes.poster))
        writer.member("backdropPath", movie.backdropPath)
        writer.member("backdropUrl", TMDBClient.imageURL(path: movie.backdropPath, size: sizes.backdrop))
    }
}

/// Poster and backdrop sizes for URLs, checked against TMDB's lists.
public struct ImageSizes: Sendable, Hashable {
    public var poster: String
    public var backdrop: String

    public static let `default` = ImageSizes(poster: "w500", backdrop: "w780")

    public init(poster: String, backdrop: String) {
        self.poster = poster
        self.backdrop = backdrop
    }

    static func validated(poster: String?, backdrop: String?) throws -> ImageSizes {
        let poster = poster ?? Self.default.poster
        let backdrop = backdrop ?? Self.default.backdrop
        guard TMDBClient.posterSizes.contains(poster) else {
            throw ResponseError.invalidParams(
                "posterSize must be one of \(TMDBClient.posterSizes.joined(separator: ", "))", field: "posterSize")
        }
        guard TMDBClient.backdropSizes.contains(backdrop) else {
            throw ResponseError.invalidParams(
                "backdropSize must be one of \(TMDBClient.backdropSizes.joined(separator: ", "))", field: "backdropSize")
        }
        return ImageSizes(poster: poster, backdrop: backdrop)
    }
}

/// Checks shared by the catalog methods' params; each failure is -32602 naming the field.
enum CatalogParams {
    static func page(_ page: Int?) throws -> Int {
        let page = page ?? 1
        guard (1...MoviePage.maxPage).contains(page) else {
            throw ResponseError.invalidParams("page must be between 1 and \(MoviePage.maxPage)", field: "page")
        }
        return page
    }

    /// ISO 639-1 language, optionally with an ISO 3166-1 region: `en`, `de-DE`, `pt-BR`.
    static func language(_ language: String?) throws -> String? {
        guard let language else { return nil }
        let parts = language.split(separator: "-", omittingEmptySubsequences: false)
        let valid = language.utf8.count <= 5 && (1...2).contains(parts.count)
            && parts[0].count == 2 && parts[0].allSatisfy { $0.isASCII && $0.isLowercase }
            && (parts.count == 1 || (parts[1].count == 2 && parts[1].allSatisfy { $0.isASCII && $0.isUppercase }))
        guard valid else {
            throw ResponseError.invalidParams(
                "language must look like \"en\" or \"de-DE\" (ISO 639-1, optionally -ISO 3166-1)", field: "language")
        }
        return language
    }

    /// ISO 3166-1 alpha-2 region, uppercase: `US`.
    static func region(_ region: String?) throws -> String? {
        guard let region else { return nil }
        guard region.count == 2, region.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw ResponseError.invalidParams("region must be an uppercase ISO 3166-1 code like \"US\"", field: "region")
        }
        return region
    }

    static func positiveID(_ id: Int, field: String) throws -> Int {
        guard id > 0 else { throw ResponseError.invalidParams("\(field) must be a positive integer", field: field) }
        return id
    }
}

/// A page of movies with where it came from.
public struct MoviePageResult: WireEncodable, Sendable {
    /// Where the page came from, and whether it holds all TMDB has (`complete: false` from the local
    /// index): all a request writes after the kept members, so the page itself is not held here.
    private let provenance: Provenance
    private let complete: Bool
    /// Search answers say whether they hold all TMDB has.
    private let reportsCompleteness: Bool
    /// The page's own members (`page` … `dates`), written once per stored copy when `answers` is given.
    private let members: EncodedJSON

    /// - Parameters:
    ///   - answers: where hot pages' members are kept (see ``EncodedAnswers``); nil writes them anew.
    ///   - request: the page's request, which with `sizes` names every parameter that changes the bytes.
    init(
        _ sourced: Sourced<MoviePage>, sizes: ImageSizes, reportsCompleteness: Bool = false,
        answers: EncodedAnswers? = nil, request: CatalogRequest? = nil
    ) {
        complete = sourced.complete
        self.reportsCompleteness = reportsCompleteness
        (members, provenance) = EncodedAnswers.answer(
            in: answers, key: request.map { EncodedAnswers.Key(request: $0, shape: .page(sizes)) }, sourced
        ) { writer in Self.writeMembers(sourced.value, sizes: sizes, to: &writer) }
    }

    public func write(to writer: inout JSONWriter) {
        writer.object(extending: members) { writer in
            writer.provenance(provenance)
            if reportsCompleteness { writer.member("complete", complete) }
        }
    }

    private static func writeMembers(_ page: MoviePage, sizes: ImageSizes, to writer: inout JSONWriter) {
        writer.member("page", page.page)
        writer.member("totalPages", page.totalPages)
        writer.member("totalResults", page.totalResults)
        writer.key("results")
        writer.array(page.results) { writer, movie in
            writer.object { writer in MovieSummaryWire.writeFields(movie, to: &writer, sizes: sizes) }
        }
        if let dates = page.dates {
            writer.key("dates")
            writer.object { writer in
                writer.member("minimum", dates.minimum)
                writer.member("maximum", dates.maximum)
            }
        }
    }
}

extension ServerContext {
    /// A page of movies as the page methods answer it: fetched under `policy` (network first when nil), its
    /// members kept per stored copy under the request's cache key.
    func moviePage(_ request: CatalogRequest, policy: CachePolicy?, sizes: ImageSizes) async throws -> MoviePageResult {
        let sourced = try await services.repository.page(request, policy: policy ?? .networkFirst)
        return MoviePageResult(sourced, sizes: sizes, answers: encodedAnswers, request: request)
    }
}

/// Params shared by the two list methods.
public struct MovieListParams: Decodable, Sendable {
    public var page: Int?
    public var language: String?
    public var region: String?
    public var posterSize: String?
    public var backdropSize: String?
    public var cachePolicy: CachePolicy?
}
