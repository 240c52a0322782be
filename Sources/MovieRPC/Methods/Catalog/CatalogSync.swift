import JSONRPC
import MovieCore

/// `catalog.sync`: prefetches the genre list, the first popular, trending and top rated pages, each chosen
/// genre's first page and, with `details`, every saved movie's details with credits and videos (one
/// request each, four at a time), so that the catalog works offline later. The TMDB client paces every
/// request within TMDB's rate limit and a 429 holds them all back (`PacingHTTPClient`). Reports
/// `$/progress` when given a `progressToken`; cancellable between steps.
public struct CatalogSync: MovieMethod {
    public static let name = "catalog.sync"

    /// `[28, 12]`, or `"all"` for every genre.
    public enum GenreSelection: Decodable, Sendable {
        case all
        case some([Int])

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let ids = try? container.decode([Int].self) {
                self = .some(ids)
            } else if let word = try? container.decode(String.self), word == "all" {
                self = .all
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "must be an array of genre ids or \"all\"")
            }
        }
    }

    public struct Params: Decodable, Sendable {
        public var popularPages: Int?
        public var trending: Int?
        public var topRated: Int?
        public var details: Bool?
        public var genres: GenreSelection?
        public var language: String?
        public var progressToken: ProgressToken?
    }

    /// A `$/progress` token: an integer or a string, as in LSP.
    public typealias ProgressToken = RequestID

    public struct Failure: Encodable, Sendable {
        public var item: String
        public var code: Int
        public var message: String
    }

    public struct Result: Encodable, Sendable {
        public var total: Int
        public var succeeded: Int
        public var failed: Int
        public var genres: Int
        public var pages: Int
        public var movies: Int
        /// Movies whose details (with credits and videos) were saved.
        public var details: Int
        /// The first ``CatalogSync/maxFailuresListed`` failures; `failuresOmitted` counts the rest.
        public var failures: [Failure]
        public var failuresOmitted: Int
        public var source: String
    }

    struct Progress: Encodable, Sendable {
        struct Value: Encodable, Sendable {
            var done: Int
            var total: Int
            var message: String
        }
        var token: ProgressToken
        var value: Value
    }

    static let maxPopularPages = 50
    static let maxListPages = 20
    /// TMDB has 19 movie genres.
    static let maxGenres = 19
    /// Details fetched at most per sync: the movies of 50 popular, 20 trending and 20 top rated pages
    /// and 19 genres hold fewer than 2,200; this keeps a call's upstream requests bounded.
    static let maxDetails = 2_200
    static let maxFailuresListed = 20
    static let detailsInParallel = 4

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let popularPages = try pages(params.popularPages ?? 3, max: maxPopularPages, field: "popularPages")
        let trendingPages = try pages(params.trending ?? 0, max: maxListPages, field: "trending")
        let topRatedPages = try pages(params.topRated ?? 0, max: maxListPages, field: "topRated")
        let language = try CatalogParams.language(params.language)
        let token = try ProgressTokens.checked(params.progressToken)
        let requestedGenres = try genreIDs(params.genres)
        let repository = server.services.repository

        let genres = try await repository.genres(language: language, policy: .networkFirst)
        let genreIDs = requestedGenres ?? genres.value.map(\.id)
        let steps: [CatalogRequest] = (0..<popularPages).map { .popular(page: $0 + 1, language: language, region: nil) }
            + (0..<trendingPages).map { .trending(window: .day, page: $0 + 1, language: language) }
            + (0..<topRatedPages).map { .list(.topRated, page: $0 + 1, language: language, region: nil) }
            + genreIDs.map { .byGenre(genreID: $0, page: 1, language: language, region: nil) }
        var report = Report(total: steps.count + 1, source: genres.source.rawValue, genres: genres.value.count)
        report.succeed()
        notify(request, token, report, message: "Genres")

        var movieIDs: [Int] = []
        var seen = Set<Int>()
        for step in steps {
            try Task.checkCancellation()
            switch await fetch(step, { try await repository.page(step, policy: .networkOnly) }) {
            case .success(let page):
                report.succeed()
                report.result.pages += 1
                report.result.movies += page.value.results.count
                for movie in page.value.results where seen.insert(movie.id).inserted { movieIDs.append(movie.id) }
            case .failure(let failure):
                report.fail(failure)
            }
            notify(request, token, report, message: step.subject)
        }

        if params.details == true {
            let detailSteps = movieIDs.prefix(maxDetails).map {
                CatalogRequest.detailsWithParts(movieID: $0, language: language)
            }
            report.result.total += detailSteps.count
            try await withThrowingTaskGroup(of: (CatalogRequest, Outcome<MovieDetails>).self) { group in
                var pending = detailSteps.makeIterator()
                func startNext() {
                    guard let step = pending.next() else { return }
                    group.addTask {
                        (step, await fetch(step, { try await repository.details(step, policy: .networkOnly) }))
                    }
                }
                for _ in 0..<detailsInParallel { startNext() }
                while let (step, outcome) = try await group.next() {
                    try Task.checkCancellation()
                    switch outcome {
                    case .success:
                        report.succeed()
                        report.result.details += 1
                    case .failure(let failure):
                        report.fail(failure)
                    }
                    notify(request, token, report, message: step.subject)
                    startNext()
                }
            }
        }
        try Task.checkCancellation()
        await server.services.record(.catalogSynced(pages: report.result.pages))
        return report.result
    }

    enum Outcome<Value: Sendable>: Sendable {
        case success(Sourced<Value>)
        case failure(Failure)
    }

    /// One step. A step still rate limited after the HTTP layer's retries waits out the `Retry-After` and
    /// is tried again, twice at most: a sync is worth finishing.
    private static func fetch<Value: Sendable>(
        _ step: CatalogRequest, _ body: @Sendable () async throws -> Sourced<Value>
    ) async -> Outcome<Value> {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return .success(try await body())
            } catch MovieError.rateLimited(let retryAfter) where attempt < 3 {
                do {
                    try await Task.sleep(for: .milliseconds(Int64(min(max(retryAfter ?? 1, 0), 60) * 1000)))
                } catch {
                    return .failure(failure(step, error))
                }
            } catch {
                return .failure(failure(step, error))
            }
        }
    }

    private static func failure(_ step: CatalogRequest, _ error: any Error) -> Failure {
        let wire = WireErrors.map(error)
        return Failure(item: step.subject, code: wire.code.rawValue, message: wire.message)
    }

    private struct Report {
        var result: Result

        init(total: Int, source: String, genres: Int) {
            result = Result(
                total: total, succeeded: 0, failed: 0, genres: genres, pages: 0, movies: 0, details: 0, failures: [],
                failuresOmitted: 0, source: source)
        }

        var done: Int { result.succeeded + result.failed }

        mutating func succeed() { result.succeeded += 1 }

        mutating func fail(_ failure: Failure) {
            result.failed += 1
            if result.failures.count < CatalogSync.maxFailuresListed {
                result.failures.append(failure)
            } else {
                result.failuresOmitted += 1
            }
        }
    }

    private static func pages(_ count: Int, max: Int, field: String) throws -> Int {
        guard (0...max).contains(count) else {
            throw ResponseError.invalidParams("\(field) must be between 0 and \(max)", field: field)
        }
        return count
    }

    /// The chosen genres, duplicates dropped (3,000 copies of one id are one request); nil for "all".
    private static func genreIDs(_ selection: GenreSelection?) throws -> [Int]? {
        switch selection ?? .some([]) {
        case .all:
            return nil
        case .some(let ids):
            var seen = Set<Int>()
            var unique: [Int] = []
            for (index, id) in ids.enumerated() {
                guard id > 0 else {
                    throw ResponseError.invalidParams(
                        "genres[\(index)] must be a positive genre id", field: "genres[\(index)]")
                }
                if seen.insert(id).inserted {
                    unique.append(id)
                    guard unique.count <= maxGenres else {
                        throw ResponseError.invalidParams(
                            "genres must name at most \(maxGenres) distinct genres (TMDB has \(maxGenres))",
                            field: "genres")
                    }
                }
            }
            return unique
        }
    }

    private static func notify(_ request: RequestContext, _ token: ProgressToken?, _ report: Report, message: String) {
        guard let token else { return }
        request.notify("$/progress", Progress(
            token: token, value: .init(done: report.done, total: report.result.total, message: message)))
    }
}

/// `progressToken` is echoed in every `$/progress`: its size is bounded so that a request cannot multiply
/// its own bytes into the output.
enum ProgressTokens {
    static let maxStringBytes = 256

    static func checked(_ token: RequestID?) throws -> RequestID? {
        if case .string(let text)? = token, text.utf8.count > maxStringBytes {
            throw ResponseError.invalidParams(
                "progressToken must be an integer or a string of at most \(maxStringBytes) bytes",
                field: "progressToken")
        }
        return token
    }
}
