#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// Sync's tables in the local database: the latest known version of each item (`sync_versions`), the
/// outbox (`sync_outbox`) and, per user, the pull cursor and the times of the last push and pull
/// (`sync_cursors`). Everything goes with its user (`ON DELETE CASCADE`): deleting an account leaves
/// nothing of it pending. Remote changes are applied here under ``ConflictRule``.
struct SyncStore: Sendable {
    let database: Database

    static let migrations: [MovieStore.Migration] = [
        ("v1-sync", { db in
            try db.execute("""
                CREATE TABLE sync_versions(
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('favorite', 'profile')),
                    movie_id INTEGER NOT NULL,
                    changed_at INTEGER NOT NULL,
                    change_id TEXT NOT NULL,
                    deleted INTEGER NOT NULL,
                    PRIMARY KEY (user_id, kind, movie_id)
                ) WITHOUT ROWID;
                CREATE TABLE sync_outbox(
                    id INTEGER PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    movie_id INTEGER NOT NULL,
                    change_id TEXT NOT NULL,
                    queued_at INTEGER NOT NULL,
                    UNIQUE (user_id, kind, movie_id)
                );
                CREATE TABLE sync_cursors(
                    user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    pulled_through INTEGER,
                    last_pulled_at INTEGER,
                    last_pushed_at INTEGER
                );
                """)
        }),
    ]

    // MARK: Recording (inside the caller's transaction)

    static func setVersion(
        _ db: SQLiteConnection, userID: String, kind: SyncItemKind, movieID: Int, _ version: SyncVersion
    ) throws {
        try db.run(
            """
            INSERT INTO sync_versions(user_id, kind, movie_id, changed_at, change_id, deleted)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(user_id, kind, movie_id) DO UPDATE SET
                changed_at = excluded.changed_at, change_id = excluded.change_id, deleted = excluded.deleted
            """,
            [.text(userID), .text(kind.rawValue), .integer(Int64(movieID)), .integer(version.changedAt),
             .text(version.changeID), .integer(version.deleted ? 1 : 0)])
    }

    /// Queues `changeID` for the item, replacing a pending entry of an earlier change.
    static func queue(
        _ db: SQLiteConnection, userID: String, kind: SyncItemKind, movieID: Int, changeID: String, at time: Int64
    ) throws {
        try db.run(
            """
            INSERT INTO sync_outbox(user_id, kind, movie_id, change_id, queued_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(user_id, kind, movie_id) DO UPDATE SET change_id = excluded.change_id
            """,
            [.text(userID), .text(kind.rawValue), .integer(Int64(movieID)), .text(changeID), .integer(time)])
    }

    // MARK: Status

    struct Times: Sendable, Equatable {
        var pending: Int
        var lastPushedAt: Int64?
        var lastPulledAt: Int64?
        var pulledThrough: Int64?
    }

    func times(userID: String) async throws -> Times {
        try await read { db in
            let pending = try db.scalarInt("SELECT count(*) FROM sync_outbox WHERE user_id = ?", [.text(userID)]) ?? 0
            let row = try db.queryOne(
                "SELECT pulled_through, last_pulled_at, last_pushed_at FROM sync_cursors WHERE user_id = ?",
                [.text(userID)])
            return Times(
                pending: pending, lastPushedAt: try row?.optionalInt64("last_pushed_at"),
                lastPulledAt: try row?.optionalInt64("last_pulled_at"),
                pulledThrough: try row?.optionalInt64("pulled_through"))
        }
    }

    // MARK: Push

    /// A pending change with what is to be written for it.
    struct PendingChange: Sendable, Equatable {
        var outboxID: Int64
        var kind: SyncItemKind
        var movieID: Int
        var version: SyncVersion
        /// A favorite that exists: when it was added (ISO 8601, ms) and its movie summary as JSON.
        var favorite: (addedAt: String, movieJSON: String)?
        /// The profile's synced fields.
        var profile: SyncedProfile?

        static func == (lhs: PendingChange, rhs: PendingChange) -> Bool {
            lhs.outboxID == rhs.outboxID && lhs.version == rhs.version && lhs.profile == rhs.profile
                && lhs.favorite?.addedAt == rhs.favorite?.addedAt && lhs.favorite?.movieJSON == rhs.favorite?.movieJSON
        }
    }

    /// Queues the user's favorites that have no version yet (kept before sync was on), once.
    func queueUnversioned(userID: String) async throws {
        let sql = """
            SELECT f.movie_id, f.added_at FROM favorites f
            WHERE f.user_id = ? AND NOT EXISTS (
                SELECT 1 FROM sync_versions v
                WHERE v.user_id = f.user_id AND v.kind = 'favorite' AND v.movie_id = f.movie_id)
            """
        // Looked for on a reader first: there are none after the first cycle, and a write transaction
        // every cycle would hold local changes up for nothing.
        guard try await read({ db in try db.queryOne(sql + " LIMIT 1", [.text(userID)]) != nil }) else { return }
        try await write { db in
            let rows = try db.query(sql, [.text(userID)])
            for row in rows {
                let movieID = try row.int("movie_id")
                let addedAt = FirestoreTime.microseconds(try row.string("added_at")).map { $0 / 1000 } ?? 0
                let version = SyncVersion(changedAt: addedAt, deleted: false, changeID: try SyncJournal.newChangeID())
                try Self.setVersion(db, userID: userID, kind: .favorite, movieID: movieID, version)
                try Self.queue(db, userID: userID, kind: .favorite, movieID: movieID, changeID: version.changeID,
                               at: addedAt)
            }
        }
    }

    /// The oldest pending changes of `userID` after the outbox entry `after` (its id), at most `limit`.
    func pending(userID: String, after: Int64 = 0, limit: Int) async throws -> [PendingChange] {
        try await read { db in
            let rows = try db.query(
                """
                SELECT o.id, o.kind, o.movie_id, o.change_id, v.changed_at, v.change_id AS version_id, v.deleted,
                       f.added_at, f.movie_json, u.bio, u.phone, u.birth_date
                FROM sync_outbox o
                LEFT JOIN sync_versions v ON v.user_id = o.user_id AND v.kind = o.kind AND v.movie_id = o.movie_id
                LEFT JOIN favorites f ON o.kind = 'favorite' AND f.user_id = o.user_id AND f.movie_id = o.movie_id
                LEFT JOIN users u ON o.kind = 'profile' AND u.id = o.user_id
                WHERE o.user_id = ? AND o.id > ? ORDER BY o.id LIMIT ?
                """, [.text(userID), .integer(after), .integer(Int64(limit))])
            return try rows.map { row in
                let kind = SyncItemKind(rawValue: try row.string("kind")) ?? .favorite
                let version = SyncVersion(
                    changedAt: try row.optionalInt64("changed_at") ?? 0,
                    deleted: (try row.optionalInt("deleted") ?? 0) != 0,
                    changeID: try row.optionalString("version_id") ?? row.string("change_id"))
                var change = PendingChange(
                    outboxID: try row.int64("id"), kind: kind, movieID: try row.int("movie_id"), version: version)
                if kind == .favorite, !version.deleted, let addedAt = try row.optionalString("added_at"),
                   let json = try row.optionalString("movie_json") {
                    change.favorite = (addedAt, json)
                }
                if kind == .favorite, change.favorite == nil { change.version.deleted = true }
                if kind == .profile {
                    change.profile = SyncedProfile(
                        bio: try row.optionalString("bio"), phone: try row.optionalString("phone"),
                        birthDate: try row.optionalString("birth_date"))
                }
                return change
            }
        }
    }

    /// Removes the outbox entries that were pushed, unless a newer change replaced them meanwhile.
    func pushed(userID: String, _ changes: [PendingChange], at time: Int64) async throws {
        try await write { db in
            for change in changes {
                try db.run(
                    "DELETE FROM sync_outbox WHERE id = ? AND change_id = ?",
                    [.integer(change.outboxID), .text(change.version.changeID)])
            }
            try Self.touchCursor(db, userID: userID, .pushed, time)
        }
    }

    /// Movies whose tombstones are older than `before` (ms) and have nothing pending, at most `limit`.
    func expiredTombstones(userID: String, before: Int64, limit: Int) async throws -> [SyncVersionedItem] {
        try await read { db in
            try db.query(
                """
                SELECT v.movie_id, v.change_id FROM sync_versions v
                WHERE v.user_id = ? AND v.kind = 'favorite' AND v.deleted = 1 AND v.changed_at < ?
                  AND NOT EXISTS (SELECT 1 FROM sync_outbox o
                                  WHERE o.user_id = v.user_id AND o.kind = v.kind AND o.movie_id = v.movie_id)
                LIMIT ?
                """, [.text(userID), .integer(before), .integer(Int64(limit))]
            ).map { SyncVersionedItem(movieID: try $0.int("movie_id"), changeID: try $0.string("change_id")) }
        }
    }

    /// Forgets tombstones deleted remotely (unless changed meanwhile).
    func forgetTombstones(userID: String, _ items: [SyncVersionedItem]) async throws {
        try await write { db in
            for item in items {
                try db.run(
                    """
                    DELETE FROM sync_versions
                    WHERE user_id = ? AND kind = 'favorite' AND movie_id = ? AND change_id = ? AND deleted = 1
                    """, [.text(userID), .integer(Int64(item.movieID)), .text(item.changeID)])
            }
        }
    }

    // MARK: Pull

    /// What applying a page of remote changes did.
    struct Applied: Sendable, Equatable {
        /// Remote changes that won and changed the local state.
        var applied = 0
        /// Items changed on both sides (a pending local change met a different remote one).
        var conflicts = 0
        /// Local changes that won over a different remote one and were queued to be pushed again.
        var requeued = 0
    }

    /// Applies remote favorites under ``ConflictRule``, in one transaction, and moves the pull cursor to
    /// `pulledThrough` (microseconds).
    func apply(userID: String, favorites: [RemoteFavorite], pulledThrough: Int64?, at time: Int64) async throws
        -> Applied
    {
        try await write { db in
            var result = Applied()
            for remote in favorites {
                let outcome = try Self.apply(db, userID: userID, remote)
                result.applied += outcome.applied
                result.conflicts += outcome.conflicts
                result.requeued += outcome.requeued
            }
            if let pulledThrough {
                try db.run(
                    """
                    INSERT INTO sync_cursors(user_id, pulled_through) VALUES (?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET
                        pulled_through = max(coalesce(pulled_through, 0), excluded.pulled_through)
                    """, [.text(userID), .integer(pulledThrough)])
            }
            try Self.touchCursor(db, userID: userID, .pulled, time)
            return result
        }
    }

    private static func localVersion(_ db: SQLiteConnection, userID: String, kind: SyncItemKind, movieID: Int) throws
        -> (version: SyncVersion?, pending: String?)
    {
        let arguments: [SQLiteValue] = [.text(userID), .text(kind.rawValue), .integer(Int64(movieID))]
        let pending = try db.queryOne(
            "SELECT change_id FROM sync_outbox WHERE user_id = ? AND kind = ? AND movie_id = ?", arguments)?
            .string("change_id")
        if let row = try db.queryOne(
            "SELECT changed_at, change_id, deleted FROM sync_versions WHERE user_id = ? AND kind = ? AND movie_id = ?",
            arguments)
        {
            let version = SyncVersion(
                changedAt: try row.int64("changed_at"), deleted: try row.int("deleted") != 0,
                changeID: try row.string("change_id"))
            return (version, pending)
        }
        return (nil, pending)
    }

    private static func apply(_ db: SQLiteConnection, userID: String, _ remote: RemoteFavorite) throws -> Applied {
        var outcome = Applied()
        var (local, pending) = try localVersion(db, userID: userID, kind: .favorite, movieID: remote.movieID)
        if local == nil, let addedAt = try db.queryOne(
            "SELECT added_at FROM favorites WHERE user_id = ? AND movie_id = ?",
            [.text(userID), .integer(Int64(remote.movieID))])?.string("added_at")
        {
            // A favorite kept before sync: its change is its addition.
            local = SyncVersion(
                changedAt: FirestoreTime.microseconds(addedAt).map { $0 / 1000 } ?? 0, deleted: false,
                changeID: try SyncJournal.newChangeID())
        }
        if local?.changeID == remote.version.changeID { return outcome }
        if let pending, pending != remote.version.changeID { outcome.conflicts = 1 }
        if ConflictRule.supersedes(remote.version, local) {
            if remote.version.deleted {
                try db.run("DELETE FROM favorites WHERE user_id = ? AND movie_id = ?",
                           [.text(userID), .integer(Int64(remote.movieID))])
            } else if let addedAt = remote.addedAt, let json = remote.movieJSON {
                try db.run(
                    """
                    INSERT INTO favorites(user_id, movie_id, added_at, movie_json) VALUES (?, ?, ?, ?)
                    ON CONFLICT(user_id, movie_id) DO UPDATE SET
                        added_at = excluded.added_at, movie_json = excluded.movie_json
                    WHERE favorites.added_at <> excluded.added_at OR favorites.movie_json <> excluded.movie_json
                    """, [.text(userID), .integer(Int64(remote.movieID)), .text(addedAt), .text(json)])
            }
            try setVersion(db, userID: userID, kind: .favorite, movieID: remote.movieID, remote.version)
            try db.run("DELETE FROM sync_outbox WHERE user_id = ? AND kind = 'favorite' AND movie_id = ?",
                       [.text(userID), .integer(Int64(remote.movieID))])
            outcome.applied = 1
        } else if let local {
            // Ours is the later change: make sure it is (or stays) queued, so the remote copy follows it.
            try setVersion(db, userID: userID, kind: .favorite, movieID: remote.movieID, local)
            if pending != local.changeID {
                try queue(db, userID: userID, kind: .favorite, movieID: remote.movieID, changeID: local.changeID,
                          at: local.changedAt)
                outcome.requeued = 1
            }
        }
        return outcome
    }

    /// Applies the remote profile when it supersedes the local one. Returns whether it did, and whether a
    /// pending local change met it.
    func apply(userID: String, profile remote: RemoteProfile) async throws -> Applied {
        try await write { db in
            var outcome = Applied()
            let (local, pending) = try Self.localVersion(db, userID: userID, kind: .profile, movieID: 0)
            if local?.changeID == remote.version.changeID { return outcome }
            if let pending, pending != remote.version.changeID { outcome.conflicts = 1 }
            if ConflictRule.supersedes(remote.version, local) {
                try db.run(
                    "UPDATE users SET bio = ?, phone = ?, birth_date = ?, updated_at = ? WHERE id = ?",
                    [remote.profile.bio.sqliteValue, remote.profile.phone.sqliteValue,
                     remote.profile.birthDate.sqliteValue, .text(Timestamp.string(Date())), .text(userID)])
                try Self.setVersion(db, userID: userID, kind: .profile, movieID: 0, remote.version)
                try db.run("DELETE FROM sync_outbox WHERE user_id = ? AND kind = 'profile'", [.text(userID)])
                outcome.applied = 1
            } else if let local, pending != local.changeID {
                try Self.queue(db, userID: userID, kind: .profile, movieID: 0, changeID: local.changeID,
                               at: local.changedAt)
                outcome.requeued = 1
            }
            return outcome
        }
    }

    /// Which time of `sync_cursors` to set.
    private enum CursorTime {
        case pushed, pulled
    }

    private static func touchCursor(_ db: SQLiteConnection, userID: String, _ which: CursorTime, _ time: Int64)
        throws
    {
        let sql = switch which {
        case .pushed:
            """
            INSERT INTO sync_cursors(user_id, last_pushed_at) VALUES (?, ?)
            ON CONFLICT(user_id) DO UPDATE SET last_pushed_at = excluded.last_pushed_at
            """
        case .pulled:
            """
            INSERT INTO sync_cursors(user_id, last_pulled_at) VALUES (?, ?)
            ON CONFLICT(user_id) DO UPDATE SET last_pulled_at = excluded.last_pulled_at
            """
        }
        try db.run(sql, [.text(userID), .integer(time)])
    }

    // MARK: Access

    private func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await StorageErrors.mapping { try await database.read(body) }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await StorageErrors.mapping { try await database.write(body) }
    }
}

/// A favorite's movie and the change it was last at.
struct SyncVersionedItem: Sendable, Equatable {
    var movieID: Int
    var changeID: String
}

/// The profile fields that sync (Firebase Auth keeps the email and display name).
struct SyncedProfile: Sendable, Equatable {
    var bio: String?
    var phone: String?
    var birthDate: String?
}

/// A favorite document, read and checked.
struct RemoteFavorite: Sendable, Equatable {
    var movieID: Int
    var version: SyncVersion
    /// ISO 8601 with milliseconds, as the local table keeps it; nil for a tombstone.
    var addedAt: String?
    var movieJSON: String?
    /// When Firestore committed it (microseconds): the pull cursor.
    var syncedAt: Int64
    var name: String
}

/// The profile document, read and checked.
struct RemoteProfile: Sendable, Equatable {
    var profile: SyncedProfile
    var version: SyncVersion
}
