import JSONRPC
import MovieCore

/// `movies.find`: the movie an IMDb id names (TMDB `/find/{id}?external_source=imdb_id`); -32021 when
/// TMDB knows none.
public struct MoviesFind: MovieMethod {
    public static let name = "movies.find"

    public struct Params: Decodable, Sendable {
        public var imdbId: String
        public var posterSize: String?
        public var backdropSize: String?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: WireEncodable, Sendable {
        var sourced: Sourced<MovieSummary>
        var sizes: ImageSizes

        public func write(to writer: inout JSONWriter) {
            writer.object { writer in
                MovieSummaryWire.writeFields(sourced.value, to: &writer, sizes: sizes)
                writer.provenance(sourced)
            }
        }
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let imdbID = params.imdbId
        let digits = imdbID.utf8.dropFirst(2)
        guard imdbID.hasPrefix("tt"), (1...12).contains(digits.count),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else {
            throw ResponseError.invalidParams("imdbId must be \"tt\" and digits, like \"tt0137523\"", field: "imdbId")
        }
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        let sourced = try await server.services.repository.movie(
            .find(imdbID: imdbID), policy: params.cachePolicy ?? .networkFirst)
        return Result(sourced: sourced, sizes: sizes)
    }
}
