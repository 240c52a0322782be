import JSONRPC
import MovieCore

/// `favorites.remove`: unmarks a movie for the logged-in user; -32021 when it is not a favorite.
public struct FavoritesRemove: MovieMethod {
    public static let name = "favorites.remove"

    public struct Params: Decodable, Sendable {
        public var movieId: Int
    }

    public struct Result: Encodable, Sendable {
        public var movieId: Int
        public var removed: Bool
    }

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let movieID = try CatalogParams.positiveID(params.movieId, field: "movieId")
        let userID = try await server.services.accounts.requireUserID()
        try await server.services.favorites.remove(userID: userID, movieID: movieID)
        await server.services.record(.favoriteRemoved(movieID: movieID))
        return Result(movieId: movieID, removed: true)
    }
}
