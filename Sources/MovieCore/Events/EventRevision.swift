import SQLiteStore

/// A value that changes whenever the stored events could have changed, by any connection of any process
/// on the database: a page kept with one is served again only while the revision is the same.
///
/// Why it is sound:
/// - `sequence` is the `events` row of `sqlite_sequence`. `events.id` is `AUTOINCREMENT`, so SQLite gives
///   each inserted row an id above every id ever handed out and raises `seq` to it in the same transaction:
///   every committed insert moves it, and it never moves back (a deleted maximum is not reused). Every
///   writer of the log inserts through `EventQueries.insert`, without explicit ids.
/// - `changes` is `event_changes.count`, raised by triggers on every deleted or updated row (migration v4),
///   so by `events.delete`, an account's events going with it, retention, and anything else. Triggers are
///   part of the schema: they fire for every connection, in the writer's own transaction.
/// - Both are read in one statement, so from one committed state; neither ever decreases, so the same
///   revision at two reads means no change to `events` was committed between them.
public struct EventRevision: Sendable, Hashable {
    public var sequence: Int64
    public var changes: Int64

    public init(sequence: Int64, changes: Int64) {
        self.sequence = sequence
        self.changes = changes
    }
}

extension EventQueries {
    /// The log's current revision: one row of each of two one-row lookups.
    static func revision(_ db: SQLiteConnection) throws -> EventRevision {
        guard let row = try db.queryOne(
            """
            SELECT (SELECT seq FROM sqlite_sequence WHERE name = 'events'),
                   (SELECT count FROM event_changes WHERE id = 1)
            """)
        else { throw MovieError.storage(.corrupt) }
        // No `sqlite_sequence` row yet: nothing was ever inserted.
        return EventRevision(sequence: try row.optionalInt64(0) ?? 0, changes: try row.int64(1))
    }
}
