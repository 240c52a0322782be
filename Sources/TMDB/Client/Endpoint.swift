#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One TMDB v3 `GET` request as data: a path, query items in a stable order, and the response type.
///
/// Paths are relative to the base URL, which already includes `/3` (e.g. `/genre/movie/list`).
/// The credential is never part of an endpoint; ``TMDBClient`` adds it when sending.
public struct Endpoint<Response: Decodable & Sendable>: Sendable, Hashable {
    /// The path below the base URL, starting with `/`.
    public let path: String
    /// Query items in the order they are sent. `nil`-valued options are omitted entirely.
    public let queryItems: [URLQueryItem]

    /// Creates an endpoint. Prefer the static constructors such as ``movieGenres(language:)``.
    public init(path: String, queryItems: [URLQueryItem] = []) {
        self.path = path
        self.queryItems = queryItems
    }

    /// A key identifying the request for caching: the path, then the query items sorted by name and
    /// value, percent-encoded. It never contains the credential.
    public var cacheKey: String {
        guard !queryItems.isEmpty else { return path }
        let sorted = queryItems.sorted { lhs, rhs in
            lhs.name == rhs.name ? (lhs.value ?? "") < (rhs.value ?? "") : lhs.name < rhs.name
        }
        return path + "?" + QueryEncoding.encode(sorted)
    }
}
