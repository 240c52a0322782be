/// A database file behind one connection and one serial executor.
///
/// Every access goes through ``read(_:)`` or ``write(_:)``, which run their closure on the actor, so the
/// connection is never used from two threads at once. Closures run synchronously and may block for up
/// to the busy timeout when another process holds the write lock.
///
/// ```swift
/// let database = try Database(path: path, migrator: migrator)
/// try await database.write { db in try db.run("INSERT INTO movie(title) VALUES (?)", [.text(title)]) }
/// let count = try await database.read { db in try db.scalarInt("SELECT count(*) FROM movie") ?? 0 }
/// ```
public actor Database {
    /// The path the database was opened with.
    public nonisolated let path: String
    private let connection: SQLiteConnection

    /// Opens (creating with mode 0600 if needed) the database at `path`, enables WAL and checks that it
    /// took, then applies `migrator`.
    ///
    /// - Throws: ``SQLiteError`` (e.g. ``SQLiteError/isCorrupt`` for a file that is not a database) or
    ///   ``MigrationError``; the connection is closed before throwing.
    public init(
        path: String,
        configuration: DatabaseConfiguration = DatabaseConfiguration(),
        migrator: DatabaseMigrator = DatabaseMigrator()
    ) throws {
        let connection = try SQLiteConnection(
            path: path,
            immutable: configuration.immutable,
            busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
            statementCacheCapacity: configuration.statementCacheCapacity)
        connection.beginRetryLimit = configuration.beginRetryLimit
        // A database from a newer version is refused before anything is written, not even the journal mode.
        try migrator.checkNotNewer(connection)
        if configuration.walEnabled && !configuration.immutable {
            try connection.enableWAL(synchronousNormal: configuration.synchronousNormal)
        }
        try migrator.migrate(connection)
        self.connection = connection
        self.path = path
    }

    /// Runs `body` with writes refused (``SQLiteConnection/refusingWrites(_:)``): any write fails with
    /// ``SQLiteError/isReadOnly`` before it runs, and prepared statements stay prepared. Statements are not wrapped in a transaction; wrap them in
    /// `db.transaction(.deferred) { … }` to read a consistent snapshot across several statements.
    public func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try connection.refusingWrites { try body(connection) }
    }

    /// Runs `body` in an `IMMEDIATE` transaction: committed when it returns, rolled back when it throws.
    public func write<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try connection.transaction(.immediate) {
            try body(connection)
        }
    }

    /// Runs `body` outside any transaction, for statements that cannot run in one (`VACUUM`, some
    /// pragmas). Each statement commits on its own.
    public func writeWithoutTransaction<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try body(connection)
    }

    /// Closes the connection; later reads and writes throw ``ResultCode/misuse``.
    public func close() throws {
        try connection.close()
    }
}
