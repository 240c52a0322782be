import JSONRPC
import Testing

@testable import MovieRPC

/// A kept `favorites.contains` answer is served only for the same user, revision and ids.
@Suite struct FavoritesContainsCacheTests {
    static let json = EncodedJSON(FavoritesContains.Result(contains: ["550": true]))

    @Test func servesOnlyTheSameQuestionAtTheSameRevision() {
        let cache = FavoritesContainsCache()
        #expect(cache.answer(userID: "ada", revision: 3, movieIDs: [550]) == nil)
        cache.keep(Self.json, userID: "ada", revision: 3, movieIDs: [550, 13])
        #expect(cache.answer(userID: "ada", revision: 3, movieIDs: [550, 13]) == Self.json)
        #expect(cache.answer(userID: "ada", revision: 4, movieIDs: [550, 13]) == nil)
        #expect(cache.answer(userID: "bob", revision: 3, movieIDs: [550, 13]) == nil)
        #expect(cache.answer(userID: "ada", revision: 3, movieIDs: [550]) == nil)
        #expect(cache.answer(userID: "ada", revision: 3, movieIDs: [550, 13, 13]) == nil)
    }

    @Test func aNewRevisionDropsTheOlderAnswers() {
        let cache = FavoritesContainsCache()
        cache.keep(Self.json, userID: "ada", revision: 1, movieIDs: [1])
        cache.keep(Self.json, userID: "bob", revision: 1, movieIDs: [2])
        cache.keep(Self.json, userID: "ada", revision: 2, movieIDs: [3])
        #expect(cache.count == 1)
        #expect(cache.answer(userID: "ada", revision: 2, movieIDs: [3]) == Self.json)
    }

    @Test func keepsAFewAnswersAtMostAndTheNewest() {
        let cache = FavoritesContainsCache()
        for id in 1...(FavoritesContainsCache.capacity + 1) {
            cache.keep(Self.json, userID: "ada", revision: 1, movieIDs: [id])
        }
        #expect(cache.count == FavoritesContainsCache.capacity)
        #expect(cache.answer(userID: "ada", revision: 1, movieIDs: [FavoritesContainsCache.capacity + 1]) != nil)
        #expect(cache.answer(userID: "ada", revision: 1, movieIDs: [1]) == nil, "the oldest answer went")
        // Keeping the same question again replaces its answer rather than adding one.
        cache.keep(Self.json, userID: "ada", revision: 1, movieIDs: [2])
        #expect(cache.count == FavoritesContainsCache.capacity)
    }
}
