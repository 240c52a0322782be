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
        /// The answer's JSON, written when it is made: each movie asked about once, in the order of its id's
        /// text, so that the same set always gives the same bytes. Kept answers are served as they are
        /// (``FavoritesContainsCache``).
        let json: EncodedJSON

        init(json: EncodedJSON) {
            self.json = json
        }

        public init(contains: [String: Bool]) {
            json = Self.written(contains.sorted { $0.key < $1.key }) { writer, member in
                writer.key(text: member.key)
                writer.value(member.value)
            }
        }

        /// `movieIDs` are positive (``FavoritesParams/movieIDs(_:)``).
        init(movieIDs: [Int], favorites: Set<Int>) {
            var ordered = movieIDs.map(TextOrder.init)
            ordered.sort()
            var previous = 0  // no id: they are positive
            json = Self.written(ordered) { writer, order in
                guard order.id != previous else { return }  // a repeated id, answered once
                previous = order.id
                writer.key(order.id)
                writer.value(favorites.contains(order.id))
            }
        }

        /// `{"contains": {…}}` with the members `member` writes for each of `members`.
        private static func written<Members: Sequence>(
            _ members: Members, _ member: (inout JSONWriter, Members.Element) -> Void
        ) -> EncodedJSON {
            EncodedJSON(object: { writer in
                writer.key("contains")
                writer.object { writer in
                    for element in members { member(&writer, element) }
                }
            })
        }

        /// A positive integer's place in the order of decimal texts ("1000" before "13"): its digits
        /// left-aligned in 19 places, then the shorter text first. Sorting the texts themselves was a
        /// twentieth of the call; this key takes five comparisons and no table (a static one cost a
        /// once-check per id).
        struct TextOrder: Comparable {
            var aligned: UInt64
            var digits: Int
            var id: Int

            init(_ id: Int) {
                self.id = id
                var aligned = UInt64(id.magnitude)
                var digits = 19
                guard aligned > 0 else {
                    self.aligned = 0
                    self.digits = 1
                    return
                }
                // Multiplied up to 19 digits ([10^18, 10^19)) by 10^16, 10^8, 10^4, 10^2, 10^1 as each fits:
                // the missing digits' count, taken in binary.
                if aligned < 1_000 { aligned *= 10_000_000_000_000_000; digits -= 16 }
                if aligned < 100_000_000_000 { aligned *= 100_000_000; digits -= 8 }
                if aligned < 1_000_000_000_000_000 { aligned *= 10_000; digits -= 4 }
                if aligned < 100_000_000_000_000_000 { aligned *= 100; digits -= 2 }
                if aligned < 1_000_000_000_000_000_000 { aligned *= 10; digits -= 1 }
                self.aligned = aligned
                self.digits = digits
            }

            static func < (lhs: Self, rhs: Self) -> Bool {
                (lhs.aligned, lhs.digits) < (rhs.aligned, rhs.digits)
            }

            static func == (lhs: Self, rhs: Self) -> Bool {
                lhs.aligned == rhs.aligned && lhs.digits == rhs.digits
            }
        }

        public func write(to writer: inout JSONWriter) {
            writer.value(json)
        }

        public var writtenJSON: [UInt8] { json.bytes }  // shared, not copied
    }

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let ids = try FavoritesParams.movieIDs(params.movieIds)
        // The session and the favorites' ids in one read; a pull that is due starts after it, in the background.
        let current = try await server.services.currentUserFavoriteIDs()
        let (userID, revision, favorites) = (current.userID, current.revision, current.ids)
        await server.services.sync?.pullIfStale()
        let cache = server.favoritesContainsCache
        if let revision, let json = cache.answer(userID: userID, revision: revision, movieIDs: ids) {
            return Result(json: json)
        }
        let result = Result(movieIDs: ids, favorites: favorites)
        // Without a revision (the counter gone) nothing can be known to be unchanged: nothing is kept.
        if let revision { cache.keep(result.json, userID: userID, revision: revision, movieIDs: ids) }
        return result
    }
}
