import JSONRPC
import MovieCore

/// `people.search`: actors, directors and other people by name (TMDB `/search/person`).
public struct PeopleSearch: MovieMethod {
    public static let name = "people.search"

    public struct Params: Decodable, Sendable {
        public var query: String
        public var page: Int?
        public var cachePolicy: CachePolicy?
    }

    public struct Result: WireEncodable, Sendable {
        var sourced: Sourced<PersonPage>

        public func write(to writer: inout JSONWriter) {
            let page = sourced.value
            writer.object { writer in
                writer.member("page", page.page)
                writer.member("totalPages", page.totalPages)
                writer.member("totalResults", page.totalResults)
                writer.key("results")
                writer.array(page.results) { writer, person in
                    writer.object { writer in
                        writer.member("id", person.id)
                        writer.member("name", person.name)
                        writer.member("knownForDepartment", person.knownForDepartment)
                        writer.profile(person.profilePath)
                        writer.member("popularity", person.popularity)
                    }
                }
                writer.provenance(sourced)
            }
        }
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let catalogRequest = CatalogRequest.searchPeople(
            query: try CatalogParams.query(params.query), page: try CatalogParams.page(params.page))
        return Result(sourced: try await server.services.repository.people(
            catalogRequest, policy: params.cachePolicy ?? .networkFirst))
    }
}
