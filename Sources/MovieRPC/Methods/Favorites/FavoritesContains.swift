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
        /// Each movie asked about once, in the order of its id's text, so that the same set always gives
        /// the same bytes.
        private let entries: [(id: String, isFavorite: Bool)]

        public var contains: [String: Bool] {
            Dictionary(entries.map { ($0.id, $0.isFavorite) }, uniquingKeysWith: { first, _ in first })
        }

        public init(contains: [String: Bool]) {
            entries = contains.map { (id: $0.key, isFavorite: $0.value) }.sorted { $0.id < $1.id }
        }

        /// `movieIDs` are positive (``FavoritesParams/movieIDs(_:)``).
        init(movieIDs: [Int], favorites: Set<Int>) {
            entries = Set(movieIDs).sorted { Self.textOrder($0) < Self.textOrder($1) }
                .map { (id: String($0), isFavorite: favorites.contains($0)) }
        }

        /// A key that orders positive integers as their decimal texts order ("1000" before "13"): the
        /// digits left-aligned in 19 places, then the shorter text first. Comparing the texts themselves
        /// was a twentieth of the call.
        static func textOrder(_ id: Int) -> (UInt64, Int) {
            var digits = 1
            var scale: UInt64 = 1
            var rest = UInt64(id.magnitude) / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            for _ in digits..<19 { scale *= 10 }
            return (UInt64(id.magnitude) * scale, digits)
        }

        public func write(to writer: inout JSONWriter) {
            writer.object { writer in
                writer.key("contains")
                writer.object { writer in
                    for entry in entries { writer.member(entry.id, entry.isFavorite) }
                }
            }
        }
    }

    public static func handle(
        _ params: Params, server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let ids = try FavoritesParams.movieIDs(params.movieIds)
        // The session and the favorites in one read; a pull that is due starts after it, in the background.
        let found = try await server.services.currentUserFavorites(among: ids)
        await server.services.sync?.pullIfStale()
        return Result(movieIDs: ids, favorites: found)
    }
}
