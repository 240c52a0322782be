import JSONRPC
import MovieCore

/// `people.details`: a person and their filmography, newest first, from one TMDB request
/// (`/person/{id}?append_to_response=movie_credits`).
public struct PeopleDetails: MovieMethod {
    public static let name = "people.details"

    public struct Params: Decodable, Sendable {
        public var personId: Int
        public var language: String?
        public var posterSize: String?
        public var backdropSize: String?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: WireEncodable, Sendable {
        var sourced: Sourced<PersonDetails>
        var sizes: ImageSizes

        public func write(to writer: inout JSONWriter) {
            let details = sourced.value
            writer.object { writer in
                writer.member("id", details.person.id)
                writer.member("name", details.person.name)
                writer.member("biography", details.biography)
                writer.member("birthday", details.birthday)
                writer.member("deathday", details.deathday)
                writer.member("placeOfBirth", details.placeOfBirth)
                writer.member("knownForDepartment", details.person.knownForDepartment)
                writer.profile(details.person.profilePath)
                writer.key("movies")
                writer.object { writer in
                    writer.key("cast")
                    writer.array(details.cast) { writer, credit in
                        writer.object { writer in
                            MovieSummaryWire.writeFields(credit.movie, to: &writer, sizes: sizes)
                            writer.member("character", credit.character ?? "")
                        }
                    }
                    writer.key("crew")
                    writer.array(details.crew) { writer, credit in
                        writer.object { writer in
                            MovieSummaryWire.writeFields(credit.movie, to: &writer, sizes: sizes)
                            writer.member("job", credit.job ?? "")
                            writer.member("department", credit.department ?? "")
                        }
                    }
                }
                writer.provenance(sourced)
            }
        }
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let catalogRequest = CatalogRequest.person(
            personID: try CatalogParams.positiveID(params.personId, field: "personId"),
            language: try CatalogParams.language(params.language))
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        let sourced = try await server.services.repository.person(
            catalogRequest, policy: params.cachePolicy ?? .networkFirst)
        return Result(sourced: sourced, sizes: sizes)
    }
}
