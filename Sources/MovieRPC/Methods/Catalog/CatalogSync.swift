import JSONRPC
import MovieCore

/// `catalog.sync`: prefetches the genre list, the first popular pages and each chosen genre's first page,
/// so that the catalog works offline later. Reports `$/progress` when given a `progressToken`;
/// cancellable between steps.
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
        public var failures: [Failure]
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

    public static func handle(_ params: Params, server: ServerContext, request: RequestContext) async throws -> Result {
        let popularPages = params.popularPages ?? 3
        guard (0...maxPopularPages).contains(popularPages) else {
            throw ResponseError.invalidParams("popularPages must be between 0 and \(maxPopularPages)", field: "popularPages")
        }
        let language = try CatalogParams.language(params.language)
        let repository = server.services.repository

        let genres = try await repository.genres(language: language, policy: .networkFirst)
        let genreIDs: [Int]
        switch params.genres ?? .some([]) {
        case .all: genreIDs = genres.value.map(\.id)
        case .some(let ids):
            for (index, id) in ids.enumerated() where id <= 0 {
                throw ResponseError.invalidParams("genres[\(index)] must be a positive genre id", field: "genres[\(index)]")
            }
            genreIDs = ids
        }
        let steps: [CatalogRequest] = (1...max(1, popularPages)).prefix(popularPages).map {
            .popular(page: $0, language: language, region: nil)
        } + genreIDs.map { .byGenre(genreID: $0, page: 1, language: language, region: nil) }
        let total = steps.count + 1
        var result = Result(
            total: total, succeeded: 1, failed: 0, genres: genres.value.count, pages: 0, movies: 0, failures: [],
            source: genres.source.rawValue)
        report(request, params.progressToken, done: 1, total: total, message: "Genres")

        for (index, step) in steps.enumerated() {
            try Task.checkCancellation()
            do {
                let page = try await repository.page(step, policy: .networkOnly)
                result.succeeded += 1
                result.pages += 1
                result.movies += page.value.results.count
            } catch let error as MovieError {
                let wire = WireErrors.map(error)
                result.failed += 1
                result.failures.append(Failure(item: step.subject, code: wire.code.rawValue, message: wire.message))
            }
            report(request, params.progressToken, done: index + 2, total: total, message: step.subject)
        }
        try Task.checkCancellation()
        await server.services.record(.catalogSynced(pages: result.pages))
        return result
    }

    private static func report(_ request: RequestContext, _ token: ProgressToken?, done: Int, total: Int, message: String) {
        guard let token else { return }
        request.notify("$/progress", Progress(token: token, value: .init(done: done, total: total, message: message)))
    }
}
