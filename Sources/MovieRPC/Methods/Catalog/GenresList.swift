import JSONRPC
import MovieCore

/// `genres.list`: every movie genre, e.g. 28 Action.
public struct GenresList: MovieMethod {
    public static let name = "genres.list"

    public struct Params: Decodable, Sendable {
        public var language: String?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: WireEncodable, Sendable {
        private let provenance: Provenance
        /// `{"genres": […]}`, written once per stored copy when `answers` is given (see ``EncodedAnswers``).
        private let members: EncodedJSON

        init(sourced: Sourced<[Genre]>, answers: EncodedAnswers? = nil, request: CatalogRequest? = nil) {
            let key = request.map { EncodedAnswers.Key(request: $0, shape: .genres) }
            (members, provenance) = EncodedAnswers.answer(in: answers, key: key, sourced) { writer in
                writer.key("genres")
                writer.genres(sourced.value)
            }
        }

        public func write(to writer: inout JSONWriter) {
            writer.object(extending: members) { writer in writer.provenance(provenance) }
        }
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let language = try CatalogParams.language(params.language)
        let sourced = try await server.services.repository.genres(
            language: language, policy: params.cachePolicy ?? .networkFirst)
        await server.services.record(.genresOpened)
        return Result(
            sourced: sourced, answers: server.encodedAnswers, request: .genres(language: language))
    }
}
