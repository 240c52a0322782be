import JSONRPC
import MovieCore

/// `favorites.add`: marks a movie for the logged-in user and keeps its summary, so the list works offline.
/// A second add → -32020 (nothing duplicated); an unknown movie → -32021.
public struct FavoritesAdd: MovieMethod {
    public static let name = "favorites.add"

    public struct Params: Decodable, Sendable {
        public var movieId: Int
    }

    public typealias Result = FavoriteWire

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let movieID = try CatalogParams.positiveID(params.movieId, field: "movieId")
        let services = server.services
        let userID = try await services.accounts.requireUserID()
        // Answer a repeat without a catalog lookup; the UNIQUE constraint still decides when two adds race.
        if try await services.favorites.isFavorite(userID: userID, movieID: movieID) {
            throw MovieError.alreadyFavorite(movieID: movieID)
        }
        let details = try await services.repository.details(
            .details(movieID: movieID, language: nil), policy: .cacheFirst)
        let favorite = try await services.favorites.add(userID: userID, movie: details.value.summary)
        await services.record(.favoriteAdded(movieID: movieID))
        return FavoriteWire(favorite)
    }
}
