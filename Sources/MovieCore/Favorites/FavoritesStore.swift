#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import Synchronization

/// Each user's favorite movies in the local database (table `favorites`, created by
/// `AccountStore.migrations`). Every call names the user, so one user never reads or changes another's
/// favorites. `UNIQUE(user_id, movie_id)` makes a second add fail with `alreadyFavorite`, whatever races.
public struct FavoritesStore: Sendable {
    let database: Database
    /// Records each change in the sync outbox, in the change's transaction; nil when sync is off.
    let journal: SyncJournal?
    /// Decoded rows by their stored content (see `list`); shared by copies of this store.
    private let decodedRows = DecodedRows()

    private final class DecodedRows: Sendable {
        let storage = Mutex<[RowKey: Favorite]>([:])
        func withLock<T>(_ body: (inout [RowKey: Favorite]) -> T) -> T { storage.withLock { body(&$0) } }
    }

    /// The movie ids of the users asked about lately, each with the revision it was read at (see
    /// ``contains(userID:movieIDs:in:)``); shared by copies of this store.
    private let favoriteIDs = FavoriteIDs()

    private final class FavoriteIDs: Sendable {
        struct Entry: Sendable {
            var revision: Int
            var ids: Set<Int>
        }

        /// A few users at most: one is logged in at a time, and a switch of users reads the ids again.
        static let capacity = 4
        private let entries = Mutex<[String: Entry]>([:])

        func ids(of userID: String, at revision: Int) -> Set<Int>? {
            entries.withLock { entries in entries[userID].flatMap { $0.revision == revision ? $0.ids : nil } }
        }

        func keep(_ ids: Set<Int>, of userID: String, at revision: Int) {
            entries.withLock { entries in
                if entries[userID] == nil, entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
                entries[userID] = Entry(revision: revision, ids: ids)
            }
        }
    }

    /// Schema steps after `AccountStore`'s `v1-favorites` (which created the table), in order.
    ///
    /// `v2-favorites-revision`: one counter that every change to `favorites` bumps, whoever makes it (this
    /// process, another one on the same data directory, a cascade from deleting a user, plain SQL), so a
    /// cached list can be checked with one small read (see ``revision()``). It is one number for all users
    /// rather than one per user: a per-user row would have to go with its user (nothing of a deleted user
    /// stays), and a user coming back with the same id (Firebase) would then repeat old revisions.
    static let migrations: [MovieStore.Migration] = [
        ("v2-favorites-revision", { db in
            try db.execute("""
                CREATE TABLE favorites_revision(
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    revision INTEGER NOT NULL
                );
                INSERT INTO favorites_revision(id, revision) VALUES (1, 0);
                CREATE TRIGGER favorites_revise_after_insert AFTER INSERT ON favorites BEGIN
                    UPDATE favorites_revision SET revision = revision + 1 WHERE id = 1;
                END;
                CREATE TRIGGER favorites_revise_after_delete AFTER DELETE ON favorites BEGIN
                    UPDATE favorites_revision SET revision = revision + 1 WHERE id = 1;
                END;
                CREATE TRIGGER favorites_revise_after_update AFTER UPDATE ON favorites BEGIN
                    UPDATE favorites_revision SET revision = revision + 1 WHERE id = 1;
                END;
                """)
        }),
    ]

    /// Works on `database` (the data directory's store, whose migrations created `favorites`).
    public init(database: Database, journal: SyncJournal? = nil) {
        self.database = database
        self.journal = journal
    }

    /// Adds `movie` for `userID`. Throws `alreadyFavorite` when it is one already, `loginRequired` when the
    /// user no longer exists.
    @discardableResult
    public func add(userID: String, movie: MovieSummary, at date: Date = Date()) async throws -> Favorite {
        let json = try Self.encode(movie)
        let addedAt = Timestamp.string(date)
        let movieID = movie.id
        let journal = journal
        try await write { db in
            do {
                try db.run(
                    "INSERT INTO favorites(user_id, movie_id, added_at, movie_json) VALUES (?, ?, ?, ?)",
                    [.text(userID), .integer(Int64(movieID)), .text(addedAt), .text(json)])
                // Offline search finds what was made a favorite, even if it was never cached.
                try LocalMovieIndex.index([movie], storedAt: date, in: db)
            } catch let error as SQLiteError where error.code == .constraintUnique {
                throw MovieError.alreadyFavorite(movieID: movieID)
            } catch let error as SQLiteError where error.code == .constraintForeignKey {
                throw MovieError.loginRequired
            }
            try journal?.favoriteChanged(db, userID: userID, movieID: movieID, deleted: false)
        }
        journal?.committed()
        return Favorite(movieID: movieID, addedAt: StoredTime.date(addedAt) ?? date, movie: movie)
    }

    /// Removes a favorite; `notFound` when it is not one.
    public func remove(userID: String, movieID: Int) async throws {
        let journal = journal
        let removed = try await write { db -> Bool in
            try db.run(
                "DELETE FROM favorites WHERE user_id = ? AND movie_id = ?", [.text(userID), .integer(Int64(movieID))])
            guard db.changes > 0 else { return false }
            try journal?.favoriteChanged(db, userID: userID, movieID: movieID, deleted: true)
            return true
        }
        guard removed else { throw MovieError.notFound("favorite movie \(movieID)") }
        journal?.committed()
    }

    /// The user's favorites, newest first.
    public func list(userID: String) async throws -> [Favorite] {
        try await revisedList(userID: userID).favorites
    }

    /// A number that grows with every change to any user's favorites, made in this process or another one
    /// on the same database. The same revision means the same favorites. Nil when the counter's row is
    /// gone (the database edited by hand): nothing can be known to be unchanged then.
    public func revision() async throws -> Int? {
        try await read { db in try Self.revision(db) }
    }

    /// The user's favorites, newest first, with the revision they are at least as new as: a cache may
    /// keep the list under that revision, and finding a different one later means it is out of date.
    public func revisedList(userID: String) async throws -> (revision: Int?, favorites: [Favorite]) {
        let (revision, rows) = try await read { db in
            // The revision and the rows are of one moment (a read is one snapshot).
            let revision = try Self.revision(db)
            let rows = try db.query(
                """
                SELECT movie_id, added_at, movie_json FROM favorites
                WHERE user_id = ? ORDER BY added_at DESC, id DESC
                """,
                [.text(userID)])
            return (revision, rows)
        }
        return (revision, try decode(rows))
    }

    private static func revision(_ db: SQLiteConnection) throws -> Int? {
        try db.scalarInt("SELECT revision FROM favorites_revision WHERE id = 1")
    }

    private func decode(_ rows: [Row]) throws -> [Favorite] {
        // Rows are immutable once stored, so a row read before is not parsed again: decoding a long list's
        // JSON and timestamps dominated favorites.list. Only the rows of the list just read are kept, so
        // the cache holds one list and never the rows of favorites that are gone.
        let known = decodedRows.withLock { $0 }
        var kept: [RowKey: Favorite] = [:]
        kept.reserveCapacity(rows.count)
        let favorites = try rows.map { row -> Favorite in
            let movieID = try row.int("movie_id")
            let addedAt = try row.string("added_at")
            let json = try row.string("movie_json")
            let key = RowKey(movieID: movieID, addedAt: addedAt, json: json)
            let favorite = try known[key] ?? Favorite(
                movieID: movieID, addedAt: StoredTime.date(addedAt) ?? Date(timeIntervalSince1970: 0),
                movie: Self.decode(json))
            kept[key] = favorite
            return favorite
        }
        decodedRows.withLock { $0 = kept }
        return favorites
    }

    /// A stored row's content, which identifies its decoded `Favorite`.
    private struct RowKey: Hashable, Sendable {
        var movieID: Int
        var addedAt: String
        var json: String
    }

    /// Which of `movieIDs` are the user's favorites.
    public func contains(userID: String, movieIDs: [Int]) async throws -> Set<Int> {
        let ids = try await read { [self] db in try favoriteIDs(userID: userID, in: db).ids }
        return Set(movieIDs.filter { ids.contains($0) })
    }

    /// The ids of all the user's favorites, within a read of the caller's (one that also found the user),
    /// with the revision they are at least as new as (nil when the counter is gone: keep nothing then).
    ///
    /// They are kept under the favorites revision they were read at, and the revision is read each time
    /// (one row): the same revision means no change by anyone, so asking about a screenful of hearts again
    /// costs one small read instead of a probe per id.
    func favoriteIDs(userID: String, in db: SQLiteConnection) throws -> (revision: Int?, ids: Set<Int>) {
        let revision = try Self.revision(db)
        if let revision, let kept = favoriteIDs.ids(of: userID, at: revision) { return (revision, kept) }
        // Read in the caller's read: one snapshot with the revision. Without a counter (edited by hand)
        // nothing is kept.
        let ids = Set(try db.query("SELECT movie_id FROM favorites WHERE user_id = ?", [.text(userID)])
            .map { try $0.int("movie_id") })
        if let revision { favoriteIDs.keep(ids, of: userID, at: revision) }
        return (revision, ids)
    }

    /// Whether `movieID` is one of the user's favorites.
    public func isFavorite(userID: String, movieID: Int) async throws -> Bool {
        try await contains(userID: userID, movieIDs: [movieID]).contains(movieID)
    }

    /// How many favorites the user has.
    public func count(userID: String) async throws -> Int {
        try await read { db in
            try db.scalarInt("SELECT count(*) FROM favorites WHERE user_id = ?", [.text(userID)]) ?? 0
        }
    }

    // MARK: Coding and access

    private static func encode<T: Encodable>(_ value: T) throws -> String {
        let data = try JSONEncoder().encode(value)
        return String(decoding: data, as: UTF8.self)
    }

    private static func decode(_ json: String) throws -> MovieSummary {
        do {
            return try JSONDecoder().decode(MovieSummary.self, from: Data(json.utf8))
        } catch {
            StoreLog.warning("A stored favorite could not be read")
            throw MovieError.storage(.corrupt)
        }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await StorageErrors.mapping { try await database.read(body) }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await StorageErrors.mapping { try await database.write(body) }
    }
}
