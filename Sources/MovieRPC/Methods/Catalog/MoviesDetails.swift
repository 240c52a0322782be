import JSONRPC
import MovieCore

/// `movies.details`: everything the details screen shows about one movie.
public struct MoviesDetails: MovieMethod {
    public static let name = "movies.details"

    public struct Params: Decodable, Sendable {
        public var movieId: Int
        public var language: String?
        public var posterSize: String?
        public var backdropSize: String?
        public var cachePolicy: CachePolicy?
    }

    /// The summary's members and the details' members side by side in one object.
    public struct Result: WireEncodable, Sendable {
        public var sourced: Sourced<MovieDetails>
        public var sizes: ImageSizes

        public func write(to writer: inout JSONWriter) {
            let details = sourced.value
            writer.object { writer in
                MovieSummaryWire.writeFields(details.summary, to: &writer, sizes: sizes)
                writer.member("tagline", details.tagline)
                writer.member("runtime", details.runtime)
                writer.member("status", details.status)
                writer.key("genres")
                writer.genres(details.genres)
                writer.member("homepage", details.homepage)
                writer.member("imdbId", details.imdbId)
                writer.member("budget", details.budget)
                writer.member("revenue", details.revenue)
                writer.member("spokenLanguages", details.spokenLanguages)
                writer.member("productionCompanies", details.productionCompanies)
                writer.provenance(sourced)
            }
        }
    }

    public static func handle(_ params: Params, server: ServerContext, request: RequestContext) async throws -> Result {
        let movieID = try CatalogParams.positiveID(params.movieId, field: "movieId")
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        let sourced = try await server.services.repository.details(
            .details(movieID: movieID, language: try CatalogParams.language(params.language)),
            policy: params.cachePolicy ?? .networkFirst)
        await server.services.record(.movieViewed(movieID: movieID))
        return Result(sourced: sourced, sizes: sizes)
    }
}
