import JSONRPC
import MovieCore

/// A favorite on the wire: `{movieId, addedAt, movie}` with the movie as lists send it.
public struct FavoriteWire: WireEncodable, Sendable, Equatable {
    public var movieId: Int
    public var addedAt: String
    public var movie: MovieSummaryWire

    public init(_ favorite: Favorite, sizes: ImageSizes = .default) {
        movieId = favorite.movieID
        addedAt = Timestamp.string(favorite.addedAt)
        movie = MovieSummaryWire(favorite.movie, sizes: sizes)
    }

    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("movieId", movieId)
            writer.member("addedAt", addedAt)
            writer.key("movie")
            movie.write(to: &writer)
        }
    }
}

/// Checks shared by the favorites methods.
enum FavoritesParams {
    static let maxContainsIDs = 500

    static func movieIDs(_ ids: [Int]) throws -> [Int] {
        guard (1...maxContainsIDs).contains(ids.count) else {
            throw ResponseError.invalidParams(
                "movieIds must hold 1 to \(maxContainsIDs) movie ids", field: "movieIds")
        }
        for (index, id) in ids.enumerated() where id <= 0 {
            throw ResponseError.invalidParams(
                "movieIds[\(index)] must be a positive integer", field: "movieIds[\(index)]")
        }
        return ids
    }
}
