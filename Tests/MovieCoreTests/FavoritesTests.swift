import Foundation
import SQLiteStore
import Testing

@testable import MovieCore

@Suite struct FavoritesTests {
    let harness: AccountsHarness
    let accounts: AccountService
    var favorites: FavoritesStore { harness.favorites }

    init() throws {
        harness = try AccountsHarness()
        accounts = harness.service()
    }

    /// A movie summary as the catalog gives it.
    static func movie(_ id: Int, genres: [Int] = [18]) -> MovieSummary {
        MovieSummary(
            id: id, title: "Movie \(id)", originalTitle: "Movie \(id)", overview: "About \(id)",
            releaseDate: "1999-10-15", genreIds: genres, voteAverage: 8.4, voteCount: 26_280, popularity: 61.4,
            adult: false, originalLanguage: "en", posterPath: "/p\(id).jpg", backdropPath: nil)
    }

    @Test func addingTwiceFailsAndStoresOne() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        let added = try await favorites.add(userID: user.id, movie: Self.movie(550))
        #expect(added.movieID == 550)
        #expect(added.movie == Self.movie(550))
        let error = await movieError { try await favorites.add(userID: user.id, movie: Self.movie(550)) }
        #expect(error == .alreadyFavorite(movieID: 550))
        #expect(try await favorites.count(userID: user.id) == 1)
    }

    @Test func concurrentAddsStoreOne() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        let errors = await withTaskGroup(of: MovieError?.self) { group in
            for _ in 0..<5 {
                group.addTask { await movieError { try await favorites.add(userID: user.id, movie: Self.movie(550)) } }
            }
            var errors: [MovieError?] = []
            for await error in group { errors.append(error) }
            return errors
        }
        #expect(errors.filter { $0 == nil }.count == 1)
        #expect(errors.filter { $0 == .alreadyFavorite(movieID: 550) }.count == 4)
        #expect(try await favorites.count(userID: user.id) == 1)
    }

    @Test func listIsNewestFirstAndKeepsTheSummary() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try await favorites.add(userID: user.id, movie: Self.movie(1), at: start)
        let later = start.addingTimeInterval(60)
        try await favorites.add(userID: user.id, movie: Self.movie(2, genres: [28, 12]), at: later)
        try await favorites.add(userID: user.id, movie: Self.movie(3, genres: []), at: start.addingTimeInterval(60))
        let list = try await favorites.list(userID: user.id)
        #expect(list.map(\.movieID) == [3, 2, 1])
        #expect(list[1].movie == Self.movie(2, genres: [28, 12]))
        #expect(list[2].addedAt == start)
    }

    @Test func removeAndContains() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await favorites.add(userID: user.id, movie: Self.movie(550))
        try await favorites.add(userID: user.id, movie: Self.movie(13))
        #expect(try await favorites.contains(userID: user.id, movieIDs: [550, 13, 1, 550]) == [550, 13])
        #expect(try await favorites.contains(userID: user.id, movieIDs: Array(1...500)) == [13])
        try await favorites.remove(userID: user.id, movieID: 550)
        #expect(await movieError { try await favorites.remove(userID: user.id, movieID: 550) }
            == .notFound("favorite movie 550"))
        #expect(try await favorites.isFavorite(userID: user.id, movieID: 550) == false)
        #expect(try await favorites.list(userID: user.id).map(\.movieID) == [13])
    }

    @Test func usersNeverSeeOrChangeEachOthersFavorites() async throws {
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        let bob = try await accounts.register(email: "bob@example.com", password: "pw2")
        try await favorites.add(userID: ada.id, movie: Self.movie(550))
        try await favorites.add(userID: bob.id, movie: Self.movie(13))
        // The same movie for both is two favorites, not a conflict.
        try await favorites.add(userID: bob.id, movie: Self.movie(550))
        #expect(try await favorites.list(userID: ada.id).map(\.movieID) == [550])
        #expect(try await favorites.contains(userID: ada.id, movieIDs: [13, 550]) == [550])
        #expect(await movieError { try await favorites.remove(userID: ada.id, movieID: 13) }
            == .notFound("favorite movie 13"))
        try await favorites.remove(userID: bob.id, movieID: 550)
        #expect(try await favorites.list(userID: ada.id).map(\.movieID) == [550])
        #expect(try await favorites.list(userID: bob.id).map(\.movieID) == [13])
    }

    @Test func favoritesOfAnUnknownUserAreRefused() async throws {
        let error = await movieError { try await favorites.add(userID: "nobody", movie: Self.movie(550)) }
        #expect(error == .loginRequired)
    }

    @Test func favoritesSurviveARestart() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await favorites.add(userID: user.id, movie: Self.movie(550))
        let reopened = FavoritesStore(database: try MovieStore(directory: harness.directory).database)
        #expect(try await reopened.list(userID: user.id).map(\.movie) == [Self.movie(550)])
    }

    // MARK: Revisions (what a cached list is checked against)

    @Test func everyChangeGivesANewRevision() async throws {
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        let bob = try await accounts.register(email: "bob@example.com", password: "pw2")
        var seen = [try await favorites.revision()]
        try await favorites.add(userID: ada.id, movie: Self.movie(550))
        seen.append(try await favorites.revision())
        try await favorites.add(userID: ada.id, movie: Self.movie(13))
        seen.append(try await favorites.revision())
        try await favorites.remove(userID: ada.id, movieID: 550)
        seen.append(try await favorites.revision())
        // Adding back what was removed is the earlier list again, but never the earlier revision.
        try await favorites.add(userID: ada.id, movie: Self.movie(550))
        seen.append(try await favorites.revision())
        try await favorites.add(userID: bob.id, movie: Self.movie(550))
        seen.append(try await favorites.revision())
        #expect(!seen.contains(nil))
        #expect(Set(seen).count == seen.count, "revisions: \(seen)")
        let (revision, list) = try await favorites.revisedList(userID: ada.id)
        #expect(revision == seen.last)
        #expect(list.map(\.movieID) == [550, 13])
    }

    @Test func failedChangesAndReadsKeepTheRevision() async throws {
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await favorites.add(userID: ada.id, movie: Self.movie(550))
        let before = try await favorites.revision()
        _ = await movieError { try await favorites.add(userID: ada.id, movie: Self.movie(550)) }
        _ = await movieError { try await favorites.remove(userID: ada.id, movieID: 1) }
        _ = try await favorites.list(userID: ada.id)
        _ = try await favorites.contains(userID: ada.id, movieIDs: [550])
        #expect(try await favorites.revision() == before)
    }

    @Test func changesThroughAnotherConnectionGiveANewRevision() async throws {
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await favorites.add(userID: ada.id, movie: Self.movie(550))
        let before = try await favorites.revision()
        // Another process on the same data directory: its own connection, its own store.
        let other = try MovieStore(directory: harness.directory).database
        try await FavoritesStore(database: other).add(userID: ada.id, movie: Self.movie(13))
        let afterAdd = try await favorites.revision()
        #expect(afterAdd != before)
        #expect(try await favorites.revisedList(userID: ada.id).favorites.map(\.movieID) == [13, 550])
        // Even a plain SQL edit of a stored summary (no FavoritesStore involved) is seen.
        try await other.write { db in
            try db.run(
                "UPDATE favorites SET movie_json = json_set(movie_json, '$.title', 'Renamed') WHERE movie_id = 13")
        }
        #expect(try await favorites.revision() != afterAdd)
        #expect(try await favorites.list(userID: ada.id).first?.movie.title == "Renamed")
    }

    @Test func deletingTheAccountGivesANewerRevision() async throws {
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await favorites.add(userID: ada.id, movie: Self.movie(550))
        let before = try #require(try await favorites.revision())
        try await accounts.deleteAccount(password: "pw1")
        let after = try #require(try await favorites.revision())
        #expect(after > before, "a revision seen before must not come back")
        #expect(try await favorites.list(userID: ada.id).isEmpty)
    }

    @Test func keptFavoriteIDsFollowEveryChange() async throws {
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        let bob = try await accounts.register(email: "bob@example.com", password: "pw2")
        let store = harness.favorites  // one store, whose kept ids are checked below
        try await store.add(userID: ada.id, movie: Self.movie(550))
        #expect(try await store.contains(userID: ada.id, movieIDs: [550, 13]) == [550])
        try await store.add(userID: ada.id, movie: Self.movie(13))
        #expect(try await store.contains(userID: ada.id, movieIDs: [550, 13]) == [550, 13])
        try await store.remove(userID: ada.id, movieID: 550)
        #expect(try await store.contains(userID: ada.id, movieIDs: [550, 13]) == [13])
        // Another process on the same data directory, through its store and through plain SQL.
        let other = try MovieStore(directory: harness.directory).database
        try await FavoritesStore(database: other).add(userID: ada.id, movie: Self.movie(550))
        #expect(try await store.contains(userID: ada.id, movieIDs: [550, 13]) == [550, 13])
        try await other.write { db in try db.run("DELETE FROM favorites WHERE movie_id = 13") }
        #expect(try await store.contains(userID: ada.id, movieIDs: [550, 13]) == [550])
        // Users never share what is kept.
        #expect(try await store.contains(userID: bob.id, movieIDs: [550, 13]).isEmpty)
        try await store.add(userID: bob.id, movie: Self.movie(7))
        #expect(try await store.contains(userID: ada.id, movieIDs: [7, 550]) == [550])
        #expect(try await store.contains(userID: bob.id, movieIDs: [7, 550]) == [7])
        // With the counter gone nothing is kept: another process's change is still seen.
        try await other.write { db in try db.run("DELETE FROM favorites_revision") }
        #expect(try await store.contains(userID: ada.id, movieIDs: [550, 99]) == [550])
        try await FavoritesStore(database: other).add(userID: ada.id, movie: Self.movie(99))
        #expect(try await store.contains(userID: ada.id, movieIDs: [550, 99]) == [550, 99])
    }

    @Test func aMissingCounterIsNoRevision() async throws {
        try await harness.movieStore.database.write { db in try db.run("DELETE FROM favorites_revision") }
        #expect(try await favorites.revision() == nil)
    }

    @Test func aDatabaseFromBeforeRevisionsIsMigratedWithItsFavorites() async throws {
        // The store as the previous version left it: every migration except the favorites' own.
        let directory = DataDirectory(path: NSTemporaryDirectory() + "FavoritesMigration-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try directory.prepare()
        var previous = DatabaseMigrator()
        for (identifier, migrate) in CatalogCache.migrations + AccountStore.migrations + EventLog.migrations {
            previous.registerMigration(identifier, migrate)
        }
        let old = try Database(path: directory.file(MovieStore.fileName), migrator: previous)
        let ada = try await harness.service(on: old).register(email: "ada@example.com", password: "pw1")
        // Written as that version wrote it (today's `add` also indexes the movie for offline search).
        let json = String(decoding: try JSONEncoder().encode(Self.movie(550)), as: UTF8.self)
        try await old.write { db in
            try db.run(
                "INSERT INTO favorites(user_id, movie_id, added_at, movie_json) VALUES (?, 550, ?, ?)",
                [.text(ada.id), .text(Timestamp.string(Date())), .text(json)])
        }
        try await old.close()

        let store = FavoritesStore(database: try MovieStore(directory: directory).database)
        #expect(try await store.list(userID: ada.id).map(\.movieID) == [550])
        let before = try #require(try await store.revision())
        try await store.add(userID: ada.id, movie: Self.movie(13))
        #expect(try await store.revision() == before + 1)
    }
}
