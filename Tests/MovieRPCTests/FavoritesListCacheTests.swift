import JSONRPC
import Testing

@testable import MovieRPC

/// A kept `favorites.list` answer is served only for the same user, variant, revision and genre names.
@Suite struct FavoritesListCacheTests {
    static let ada = FavoritesListCache.Key(userID: "ada", grouped: false, posterSize: "w500", backdropSize: "w780")
    static let json = EncodedJSON(FavoritesContains.Result(contains: [:]))

    @Test func servesOnlyTheRevisionItWasBuiltAt() {
        let cache = FavoritesListCache()
        #expect(cache.answer(for: Self.ada, revision: 0, genreNames: nil) == nil)
        cache.keep(Self.json, for: Self.ada, revision: 3, genreNames: nil)
        #expect(cache.answer(for: Self.ada, revision: 3, genreNames: nil) == Self.json)
        #expect(cache.answer(for: Self.ada, revision: 4, genreNames: nil) == nil)
        #expect(cache.answer(for: Self.ada, revision: 2, genreNames: nil) == nil)
    }

    @Test func otherUsersVariantsAndGenreNamesAreOtherAnswers() {
        let cache = FavoritesListCache()
        cache.keep(Self.json, for: Self.ada, revision: 1, genreNames: nil)
        var bob = Self.ada
        bob.userID = "bob"
        var small = Self.ada
        small.posterSize = "w92"
        var grouped = Self.ada
        grouped.grouped = true
        for key in [bob, small, grouped] {
            #expect(cache.answer(for: key, revision: 1, genreNames: nil) == nil)
        }
        cache.keep(Self.json, for: grouped, revision: 1, genreNames: [18: "Drama"])
        #expect(cache.answer(for: grouped, revision: 1, genreNames: [18: "Drama"]) == Self.json)
        #expect(cache.answer(for: grouped, revision: 1, genreNames: [18: "Drame"]) == nil)
    }

    @Test func keepsAFewAnswersAtMost() {
        let cache = FavoritesListCache()
        for index in 0...FavoritesListCache.capacity {
            var key = Self.ada
            key.userID = "user \(index)"
            cache.keep(Self.json, for: key, revision: 1, genreNames: nil)
        }
        let kept = (0...FavoritesListCache.capacity).filter { index in
            var key = Self.ada
            key.userID = "user \(index)"
            return cache.answer(for: key, revision: 1, genreNames: nil) != nil
        }
        #expect(!kept.isEmpty && kept.count <= FavoritesListCache.capacity)
        #expect(kept.contains(FavoritesListCache.capacity), "the newest answer is kept")
    }
}
