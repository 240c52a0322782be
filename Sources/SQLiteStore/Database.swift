/// A database file behind one writer connection and a small pool of reader connections (GRDB's
/// `DatabasePool`), each on a serial dispatch queue of its own.
///
/// Writes are serialized on the writer. In WAL mode a read runs on a reader, so it never waits for a
/// write, whether this process or another holds the write lock. Closures run synchronously on the
/// connection's queue and may block (a long scan, or up to the busy timeout for a write while another
/// process holds the lock) without holding a cooperative thread. A task cancelled while its closure runs
/// interrupts the statement (or the wait for the lock) and gets `CancellationError`.
///
/// Without WAL (`:memory:`, an immutable snapshot, a file SQLite opened read-only) reads use the writer.
///
/// ```swift
/// let database = try Database(path: path, migrator: migrator)
/// try await database.write { db in try db.run("INSERT INTO movie(title) VALUES (?)", [.text(title)]) }
/// let count = try await database.read { db in try db.scalarInt("SELECT count(*) FROM movie") ?? 0 }
/// ```
public final class Database: Sendable {
    /// The path the database was opened with.
    public let path: String
    private let writer: SerializedConnection
    private let readers: ReaderPool?

    /// Opens (creating with mode 0600 if needed) the database at `path`, enables WAL and checks that it
    /// took, then applies `migrator`. Readers are opened later, when reads need them.
    ///
    /// A database in WAL mode that carries the migrator's stamp (``DatabaseMigrator/isStamped(_:)``) needs
    /// none of this: it is opened without reading its schema, and the writer's settings (`synchronous`,
    /// `cache_size`, whose statements parse the schema) are made before its first use. A start that uses
    /// no storage (a server answering `server.info`) then never parses the schema; damage in the schema's
    /// pages shows at the first statement, as damage in any other page does.
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
        let writerCacheKiB = max(0, configuration.writerCacheKiB)
        let cacheSize = "PRAGMA cache_size = -\(writerCacheKiB)"
        let synchronousNormal = configuration.synchronousNormal
        let isWAL = configuration.walEnabled && !configuration.immutable
        let setUp: (@Sendable (SQLiteConnection) throws -> Void)?
        if isWAL, connection.fileHeaderSaysWAL, try migrator.isStamped(connection) {
            setUp = { db in
                if synchronousNormal { try db.execute("PRAGMA synchronous = NORMAL") }
                try db.execute(cacheSize)
            }
        } else {
            // A database from a newer version is refused before anything is written, not even the journal
            // mode.
            try migrator.checkNotNewer(connection)
            if isWAL {
                try connection.enableWAL(synchronousNormal: synchronousNormal)
            }
            try migrator.migrate(connection)
            try connection.execute(cacheSize)
            setUp = nil
        }
        // Readers need a WAL file that the writer can write: otherwise they would wait for it anyway.
        let hasReaders = isWAL && !connection.handleIsReadOnly && configuration.maximumReaderCount > 0
        self.path = path
        self.writer = SerializedConnection(label: "SQLiteStore.writer", connection: connection, setUp: setUp)
        if hasReaders {
            let busyTimeout = configuration.busyTimeoutMilliseconds
            let cacheCapacity = configuration.statementCacheCapacity
            let pageCacheKiB = max(0, configuration.readerCacheKiB)
            readers = ReaderPool(capacity: configuration.maximumReaderCount) {
                let reader = try SQLiteConnection(
                    path: path, readOnly: true, busyTimeoutMilliseconds: busyTimeout,
                    statementCacheCapacity: cacheCapacity)
                try reader.execute("PRAGMA cache_size = -\(pageCacheKiB)")
                return reader
            }
        } else {
            readers = nil
        }
    }

    /// Runs `body` on a reader with writes refused (``SQLiteConnection/refusingWrites(_:)``): any write
    /// fails with ``SQLiteError/isReadOnly`` before it runs. A read sees every write that completed before
    /// it began, and its statements read one snapshot: they run in one deferred transaction, as GRDB's pool
    /// runs its reads (each statement on its own was a snapshot of its own, and took and gave back the
    /// write-ahead log's read lock, two `fcntl` calls, for itself).
    public func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let guarded: @Sendable (SQLiteConnection) throws -> T = { db in
            try db.refusingWrites { try db.transaction(.deferred) { try body(db) } }
        }
        guard let readers else {
            return try await writer.run(guarded)
        }
        return try await readers.read(guarded)
    }

    /// Runs `body` on the writer in an `IMMEDIATE` transaction: committed when it returns, rolled back
    /// when it throws.
    public func write<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await writer.run { db in
            try db.transaction(.immediate) {
                try body(db)
            }
        }
    }

    /// Like ``write(_:)``, but waits at most `lockTimeout` for a write lock that another connection (another
    /// process) holds, without retries, then fails with ``SQLiteError/isBusy``: for writes that can be done
    /// later, such as flushing a buffer, and must not keep their caller waiting for a lock held long.
    public func write<T: Sendable>(
        lockTimeout: Duration, _ body: @Sendable (SQLiteConnection) throws -> T
    ) async throws -> T {
        try await writer.run { db in
            try db.withLockTimeout(lockTimeout) {
                try db.transaction(.immediate) {
                    try body(db)
                }
            }
        }
    }

    /// Runs `body` on the writer outside any transaction, for statements that cannot run in one (`VACUUM`,
    /// some pragmas). Each statement commits on its own.
    public func writeWithoutTransaction<T: Sendable>(
        _ body: @Sendable (SQLiteConnection) throws -> T
    ) async throws -> T {
        try await writer.run(body)
    }

    /// Closes every connection; later reads and writes throw ``ResultCode/misuse``.
    public func close() async throws {
        for reader in readers?.closeAll() ?? [] {
            try await reader.close()
        }
        try await writer.close()
    }
}
