import JSONRPC
import MovieCore

/// `movies.latest`: the single newest TMDB record, without any image fields (such records are usually
/// near-empty; the app shows them without a picture).
public struct MoviesLatest: MovieMethod {
    public static let name = "movies.latest"

    public struct Params: Decodable, Sendable {
        public var language: String?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: WireEncodable, Sendable {
        public var sourced: Sourced<MovieDetails>

        public func write(to writer: inout JSONWriter) {
            writer.object { writer in
                MovieSummaryWire.writeFields(sourced.value.summary, to: &writer, sizes: nil)
                writer.member("runtime", sourced.value.runtime)
                writer.member("status", sourced.value.status)
                writer.provenance(sourced)
            }
        }
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let sourced = try await server.services.repository.details(
            .latest(language: try CatalogParams.language(params.language)), policy: params.cachePolicy ?? .networkFirst)
        await server.services.record(.latestOpened)
        return Result(sourced: sourced)
    }
}
