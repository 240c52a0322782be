/// An ordered list of schema migrations, each applied once and recorded in `schema_migrations`.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("v1-movies") { db in
///     try db.execute("CREATE TABLE movie(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
/// }
/// try migrator.migrate(connection)
/// ```
///
/// Each missing migration runs in its own `IMMEDIATE` transaction together with the insert that records
/// it, so a failing migration leaves no trace and earlier ones stay applied. Never edit or reorder a
/// shipped migration; add a new one. Note that `PRAGMA foreign_keys` cannot change inside a transaction.
///
/// ## The schema stamp
/// Once every migration is recorded, ``migrate(_:)`` writes ``schemaStamp`` (a hash of the identifiers,
/// in order) to `PRAGMA user_version`, which the migrator owns. A database whose header carries this
/// migrator's stamp has exactly its migrations applied, and ``isStamped(_:)`` tells so from the file's
/// header: SQLite reads no schema for it. Checking the recorded identifiers parses the whole schema first
/// (58 objects in movie-rpc's store: a third of the server's start-up). A migrator with more migrations
/// (a newer version) writes its own stamp, so an older one never takes that database for its own.
public struct DatabaseMigrator: Sendable {
    private struct Migration: Sendable {
        let identifier: String
        let migrate: @Sendable (SQLiteConnection) throws -> Void
    }

    private var migrations: [Migration] = []

    /// Creates an empty migrator.
    public init() {}

    /// The registered identifiers, in order.
    public var identifiers: [String] {
        migrations.map(\.identifier)
    }

    /// This migrator's mark in `PRAGMA user_version` of a database that has all its migrations and no
    /// others: the 32-bit FNV-1a hash of the identifiers, each ended by a zero byte; never 0 (the value of
    /// a database nothing has stamped).
    public var schemaStamp: Int32 {
        var hash: UInt32 = 2_166_136_261
        for migration in migrations {
            for byte in migration.identifier.utf8 {
                hash = (hash ^ UInt32(byte)) &* 16_777_619
            }
            hash = hash &* 16_777_619  // the zero byte that ends the identifier
        }
        return hash == 0 ? 1 : Int32(bitPattern: hash)
    }

    /// Whether the database carries ``schemaStamp``: every migration applied, none unknown. Reads the
    /// header only (not the schema).
    public func isStamped(_ connection: SQLiteConnection) throws -> Bool {
        try connection.userVersion() == Int(schemaStamp)
    }

    /// Appends a migration. `identifier` is recorded in the database; it must be unique and never change.
    public mutating func registerMigration(
        _ identifier: String,
        _ migrate: @escaping @Sendable (SQLiteConnection) throws -> Void
    ) {
        migrations.append(Migration(identifier: identifier, migrate: migrate))
    }

    /// Applies every registered migration not yet recorded, in registration order.
    ///
    /// - Throws: ``MigrationError/newerSchema(unknown:)`` when the database records migrations this
    ///   migrator does not know (checked before anything runs); ``MigrationError/duplicateIdentifier(_:)``;
    ///   or whatever a migration throws (that migration is rolled back).
    public func migrate(_ connection: SQLiteConnection) throws {
        var known = Set<String>()
        for migration in migrations where !known.insert(migration.identifier).inserted {
            throw MigrationError.duplicateIdentifier(migration.identifier)
        }
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations(
                identifier TEXT PRIMARY KEY NOT NULL,
                applied_at TEXT NOT NULL
            )
            """)
        let applied = try appliedIdentifiers(connection)
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw MigrationError.newerSchema(unknown: unknown)
        }
        let appliedSet = Set(applied)
        for migration in migrations where !appliedSet.contains(migration.identifier) {
            try connection.transaction(.immediate) {
                // Another process may have applied it between the read above and this transaction.
                let isRecorded = try connection.queryOne(
                    "SELECT 1 FROM schema_migrations WHERE identifier = ?", [.text(migration.identifier)]) != nil
                guard !isRecorded else { return }
                try migration.migrate(connection)
                try connection.run(
                    """
                    INSERT INTO schema_migrations(identifier, applied_at)
                    VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                    """,
                    [.text(migration.identifier)])
            }
        }
        try stamp(connection)
    }

    /// Writes ``schemaStamp`` unless the database carries it. Skipped on a read-only connection, and when
    /// another connection holds the write lock (no wait): the next open then checks the identifiers again.
    private func stamp(_ connection: SQLiteConnection) throws {
        guard !connection.handleIsReadOnly, try !isStamped(connection) else { return }
        do {
            try connection.withLockTimeout(.zero) { try connection.setUserVersion(Int(schemaStamp)) }
        } catch let error as SQLiteError where error.isBusy || error.isReadOnly {
            return
        }
    }

    /// Throws ``MigrationError/newerSchema(unknown:)`` when the database records migrations this migrator
    /// does not know. Only reads, so it can run before anything (even the journal mode) is changed.
    public func checkNotNewer(_ connection: SQLiteConnection) throws {
        let known = Set(identifiers)
        let unknown = try appliedIdentifiers(connection).filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw MigrationError.newerSchema(unknown: unknown)
        }
    }

    /// The identifiers recorded in `schema_migrations`, in the order they were applied (empty when the
    /// table does not exist yet).
    public func appliedIdentifiers(_ connection: SQLiteConnection) throws -> [String] {
        let tableExists = try connection.queryOne(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") != nil
        guard tableExists else { return [] }
        return try connection.query("SELECT identifier FROM schema_migrations ORDER BY rowid")
            .map { try $0.string(0) }
    }

    /// Whether every registered migration is recorded and no unknown one is.
    public func hasCompletedMigrations(_ connection: SQLiteConnection) throws -> Bool {
        try appliedIdentifiers(connection) == identifiers
    }
}
