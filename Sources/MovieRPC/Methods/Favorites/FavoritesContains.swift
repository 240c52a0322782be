import JSONRPC
import MovieCore

/// `favorites.contains`: which of up to 500 movies are the logged-in user's favorites, in one call (so a
/// list draws its hearts at once): `{contains: {"550": true, "551": false}}`.
public struct FavoritesContains: MovieMethod {
    public static let name = "favorites.contains"

    public struct Params: Decodable, Sendable {
        public var movieIds: [Int]
    }

    public struct Result: WireEncodable, Sendable {
        public var contains: [String: Bool]

        public func write(to writer: inout JSONWriter) {
            writer.object { writer in
                writer.key("contains")
                writer.object { writer in
                    // Sorted, so that the same set always gives the same bytes.
                    for (id, isFavorite) in contains.sorted(by: { $0.key < $1.key }) { writer.member(id, isFavorite) }
                }
            }
        }
    }

    public static func handle(
        _ params: Params, server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let ids = try FavoritesParams.movieIDs(params.movieIds)
        let userID = try await server.services.accounts.requireUserID()
        await server.services.sync?.pullIfStale()
        let found = try await server.services.favorites.contains(userID: userID, movieIDs: ids)
        let pairs = ids.map { (String($0), found.contains($0)) }
        return Result(contains: Dictionary(pairs, uniquingKeysWith: { first, _ in first }))
    }
}
