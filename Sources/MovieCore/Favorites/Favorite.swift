#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A movie a user marked, with the summary stored alongside so lists work offline.
public struct Favorite: Sendable, Equatable {
    /// The TMDB movie id.
    public var movieID: Int
    /// When the user added it.
    public var addedAt: Date
    /// The movie's summary as it was when added.
    public var movie: MovieSummary

    /// A favorite value (``FavoritesStore`` stores them).
    public init(movieID: Int, addedAt: Date, movie: MovieSummary) {
        self.movieID = movieID
        self.addedAt = addedAt
        self.movie = movie
    }
}
