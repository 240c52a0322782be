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
        private let entries: [Entry]

        private enum Entry: Sendable {
            case text(String, Bool)
            /// A positive id, written as its text.
            case id(Int, Bool)
        }

        public var contains: [String: Bool] {
            Dictionary(entries.map { entry in
                switch entry {
                case .text(let id, let isFavorite): (id, isFavorite)
                case .id(let id, let isFavorite): (String(id), isFavorite)
                }
            }, uniquingKeysWith: { first, _ in first })
        }

        public init(contains: [String: Bool]) {
            entries = contains.sorted { $0.key < $1.key }.map { Entry.text($0.key, $0.value) }
        }

        /// `movieIDs` are positive (``FavoritesParams/movieIDs(_:)``).
        init(movieIDs: [Int], favorites: Set<Int>) {
            let ordered = movieIDs.map { (key: Self.textOrder($0), id: $0) }.sorted { $0.key < $1.key }
            var entries: [Entry] = []
            entries.reserveCapacity(ordered.count)
            var previous: Int?
            for (_, id) in ordered where id != previous {
                entries.append(.id(id, favorites.contains(id)))
                previous = id
            }
            self.entries = entries
        }

        /// A key that orders positive integers as their decimal texts order ("1000" before "13"): the
        /// digits left-aligned in 19 places, then the shorter text first. Sorting the texts themselves
        /// was a twentieth of the call.
        static func textOrder(_ id: Int) -> (UInt64, Int) {
            let value = UInt64(id.magnitude)
            var digits = 1
            while digits < 19, value >= powersOfTen[digits] { digits += 1 }
            return (value * powersOfTen[19 - digits], digits)
        }

        private static let powersOfTen: [UInt64] = (0...19).map { power in
            (0..<power).reduce(UInt64(1)) { product, _ in product * 10 }
        }

        public func write(to writer: inout JSONWriter) {
            writer.object { writer in
                writer.key("contains")
                writer.object { writer in
                    for entry in entries {
                        switch entry {
                        case .text(let id, let isFavorite): writer.member(id, isFavorite)
                        case .id(let id, let isFavorite):
                            writer.key(id)
                            writer.value(isFavorite)
                        }
                    }
                }
            }
        }
    }

    public static func handle(
        _ params: Params, server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let ids = try FavoritesParams.movieIDs(params.movieIds)
        // The session and the favorites' ids in one read; a pull that is due starts after it, in the background.
        let favorites = try await server.services.currentUserFavoriteIDs()
        await server.services.sync?.pullIfStale()
        return Result(movieIDs: ids, favorites: favorites)
    }
}
