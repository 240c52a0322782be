#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// One SQLite database connection (`sqlite3*`).
///
/// Not `Sendable`, and opened with `SQLITE_OPEN_NOMUTEX`: use a connection from one actor only (see
/// ``Database``), never from two threads at once.
///
/// Opening creates a missing file with mode 0600 (SQLite gives the `-wal` and `-shm` files the same
/// mode), sets a busy timeout, turns on foreign keys and reads the schema, so a file that is not a
/// database fails here with an ``SQLiteError`` whose ``SQLiteError/isCorrupt`` is true.
///
/// `run`, `query`, `queryOne`, `scalar` and `scalarInt` reuse prepared statements from a cache keyed by
/// SQL text; statements are reset and their bindings cleared after each use.
public final class SQLiteConnection {
    /// The path the connection was opened with.
    public let path: String
    /// Whether the connection was opened read-only.
    public let isReadOnly: Bool
    /// The maximum number of cached statements; when full, the cache is emptied. 0 disables caching.
    public var statementCacheCapacity: Int
    /// How many times `BEGIN IMMEDIATE`/`BEGIN EXCLUSIVE` is retried on `SQLITE_BUSY`, with a short
    /// backoff, after the busy timeout has already expired.
    public var beginRetryLimit: Int = 5

    private var handle: OpaquePointer?
    private let writeGuard = WriteGuard()
    /// What the busy and progress handlers read; they get it unretained, so it lives as long as `handle`.
    private let hooks: ConnectionHooks
    private var statementCache: [String: Statement] = [:]
    private var savepointDepth = 0

    /// Opens (and, unless `readOnly`, creates) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: a file path, or `":memory:"` for a private in-memory database.
    ///   - readOnly: open with `SQLITE_OPEN_READONLY`; writes then fail with ``SQLiteError/isReadOnly``.
    ///   - immutable: open read-only as SQLite's `immutable=1`: no locks and no -shm file, for a database in a
    ///     directory nobody can write (so no writer can exist). Implies `readOnly`; the WAL is not read.
    ///   - busyTimeoutMilliseconds: how long to wait for another connection's lock before `SQLITE_BUSY`.
    ///   - statementCacheCapacity: see ``statementCacheCapacity``.
    /// - Throws: ``SQLiteError`` (`cantOpen`, `notADatabase`, …); the handle is closed before throwing.
    public init(
        path: String,
        readOnly: Bool = false,
        immutable: Bool = false,
        busyTimeoutMilliseconds: Int = 5000,
        statementCacheCapacity: Int = 64
    ) throws {
        let readOnly = readOnly || immutable
        if !readOnly {
            createPrivateFileIfMissing(path)
        }
        var openedHandle: OpaquePointer?
        var accessFlags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var name = path
        if immutable {
            accessFlags |= SQLITE_OPEN_URI
            name = "file:\(Self.uriEscaped(path))?immutable=1"
        }
        let resultCode = sqlite3_open_v2(name, &openedHandle, accessFlags | SQLITE_OPEN_NOMUTEX, nil)
        guard resultCode == SQLITE_OK, let openedHandle else {
            // A nil handle with SQLITE_OK cannot happen in practice; report it as out of memory.
            let failure = resultCode == SQLITE_OK ? SQLITE_NOMEM : resultCode
            let error = SQLiteError(resultCode: failure, connection: openedHandle)
            // sqlite3_open_v2 usually allocates a handle even when it fails; it must still be closed.
            sqlite3_close_v2(openedHandle)
            throw error
        }
        let hooks = ConnectionHooks(busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        do {
            try SQLiteConnection.configure(openedHandle, hooks: hooks)
        } catch {
            SQLiteConnection.close(openedHandle)
            throw error
        }
        self.hooks = hooks
        self.handle = openedHandle
        self.path = path
        self.isReadOnly = readOnly
        self.statementCacheCapacity = statementCacheCapacity
    }

    /// `path` as the path part of a `file:` URI: `%`, `?` and `#` would otherwise end or alter it.
    static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    deinit {
        statementCache.removeAll()
        if let handle {
            SQLiteConnection.close(handle)
        }
    }

    private static func configure(_ handle: OpaquePointer, hooks: ConnectionHooks) throws {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_handler(handle, busyHandler, Unmanaged.passUnretained(hooks).toOpaque())
        try SQLiteConnection.exec(handle, "PRAGMA foreign_keys = ON")
        // Reading the header's user version reads page 1 and checks the header: garbage fails now with
        // SQLITE_NOTADB. (Not the schema: that is parsed by the first statement that needs it.)
        try SQLiteConnection.exec(handle, "PRAGMA user_version")
    }

    /// Closes the connection. Cached statements are finalized; later calls throw ``ResultCode/misuse``.
    /// Closing twice is harmless. Dropping the last reference also closes the connection.
    public func close() throws {
        statementCache.removeAll()
        guard let handle else { return }
        self.handle = nil
        let resultCode = SQLiteConnection.close(handle)
        guard resultCode == SQLITE_OK else {
            throw SQLiteError(code: ResultCode(rawValue: resultCode))
        }
    }

    /// Detaches the handlers (their context dies with this object), then closes. close_v2 defers the real
    /// close until statements still held by callers are finalized.
    @discardableResult
    private static func close(_ handle: OpaquePointer) -> Int32 {
        sqlite3_busy_handler(handle, nil, nil)
        sqlite3_progress_handler(handle, 0, nil, nil)
        return sqlite3_close_v2(handle)
    }

    /// Lets `interruption` stop this connection's statements (every few hundred virtual-machine steps) and
    /// its waits for locks. Called once, by the ``SerializedConnection`` that owns the connection.
    func install(_ interruption: Interruption) {
        hooks.interruption = interruption
        guard let handle else { return }
        let context = Unmanaged.passUnretained(interruption).toOpaque()
        sqlite3_progress_handler(handle, ConnectionHooks.progressInterval, progressHandler, context)
    }

    /// Whether SQLite opened the main database read-only (asked to, or because the file is not writable).
    var handleIsReadOnly: Bool {
        guard let handle else { return true }
        return sqlite3_db_readonly(handle, "main") != 0
    }

    /// Whether the main database file's header says WAL mode (its format's write and read versions, bytes 18
    /// and 19, are both 2): read through SQLite's own file handle, because `PRAGMA journal_mode` parses the
    /// schema to answer. Not through a descriptor of our own: closing any descriptor of a file releases
    /// every POSIX lock the process holds on it, SQLite's shared lock included, and another process closing
    /// the database would then take itself for the last one and delete the write-ahead log.
    var fileHeaderSaysWAL: Bool {
        guard let handle else { return false }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
            let file, let read = file.pointee.pMethods?.pointee.xRead
        else { return false }
        var versions: (UInt8, UInt8) = (0, 0)
        let result = withUnsafeMutableBytes(of: &versions) { read(file, $0.baseAddress, 2, 18) }
        return result == SQLITE_OK && versions == (2, 2)
    }

    /// Bytes SQLite holds for the parsed schema (`SQLITE_DBSTATUS_SCHEMA_USED`): 0 until a statement that
    /// needs the schema has run on this connection.
    public var schemaMemoryUsed: Int {
        guard let handle else { return 0 }
        var current: Int32 = 0
        var highwater: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_SCHEMA_USED, &current, &highwater, 0)
        return Int(current)
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool {
        handle == nil
    }

    private func openHandle() throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(code: .misuse, message: "connection is closed")
        }
        return handle
    }

    // MARK: Settings

    /// Sets how long to wait for another connection's lock before failing with `SQLITE_BUSY`.
    public func setBusyTimeout(milliseconds: Int) throws {
        _ = try openHandle()
        hooks.busyTimeoutMilliseconds = milliseconds
    }

    /// Switches to write-ahead logging and checks that it took (it cannot for `:memory:` databases or
    /// read-only connections to a non-WAL file). With `synchronousNormal`, also sets
    /// `PRAGMA synchronous = NORMAL`, which is durable against crashes of the application in WAL mode.
    public func enableWAL(synchronousNormal: Bool = true) throws {
        // Connections (processes) opening one new database at the same moment: the switch to WAL can fail
        // with SQLITE_BUSY at once, without waiting in the busy handler (ConcurrentOpenTests shows it), so
        // it is retried like BEGIN IMMEDIATE, for about two seconds.
        let mode = try retryingWhileBusy(limit: 24) {
            try prepare("PRAGMA journal_mode = WAL").allRows().first?.optionalString(0)?.lowercased()
        }
        guard mode == "wal" else {
            throw SQLiteError(
                code: .error, message: "journal_mode=WAL did not take effect (mode is '\(mode ?? "")')")
        }
        if synchronousNormal {
            try execute("PRAGMA synchronous = NORMAL")
        }
    }

    /// Runs `body` with `timeout` as the busy timeout and no `BEGIN` retries: a lock another connection holds
    /// longer fails the statement with `SQLITE_BUSY`. The settings are restored afterwards.
    public func withLockTimeout<T>(_ timeout: Duration, _ body: () throws -> T) rethrows -> T {
        let (saved, retries) = (hooks.busyTimeoutMilliseconds, beginRetryLimit)
        let (seconds, attoseconds) = timeout.components
        hooks.busyTimeoutMilliseconds = Int(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        beginRetryLimit = 0
        defer { (hooks.busyTimeoutMilliseconds, beginRetryLimit) = (saved, retries) }
        return try body()
    }

    /// The current journal mode, lowercased (`"wal"`, `"delete"`, `"memory"`, …).
    public func journalMode() throws -> String {
        try prepare("PRAGMA journal_mode").allRows().first?.optionalString(0)?.lowercased() ?? ""
    }

    /// `PRAGMA user_version`, an integer in the file's header. In a database that a ``DatabaseMigrator``
    /// migrates it holds the migrator's schema stamp (``DatabaseMigrator/schemaStamp``), not the
    /// application's.
    public func userVersion() throws -> Int {
        try scalarInt("PRAGMA user_version") ?? 0
    }

    /// Sets `PRAGMA user_version`.
    public func setUserVersion(_ version: Int) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    // MARK: Executing SQL

    /// Runs a script of zero or more `;`-separated statements without arguments (`sqlite3_exec`).
    public func execute(_ sql: String) throws {
        let handle = try openHandle()
        if writeGuard.refusesWrites {
            try writeGuard.enterQueryOnly(handle)
        }
        try SQLiteConnection.exec(handle, sql)
    }

    /// Runs `body` with writes refused: a write fails with ``SQLiteError/isReadOnly``. Statements that only
    /// read (`sqlite3_stmt_readonly`) run without `PRAGMA query_only`, whose every change expires all of
    /// the connection's prepared statements; any other statement turns it on until the scope ends.
    public func refusingWrites<T>(_ body: () throws -> T) throws -> T {
        guard !writeGuard.refusesWrites else { return try body() }
        writeGuard.refusesWrites = true
        let result: T
        do {
            result = try body()
        } catch {
            writeGuard.refusesWrites = false
            if let handle { try? writeGuard.leaveQueryOnly(handle) }  // The body's error is the one to report.
            throw error
        }
        writeGuard.refusesWrites = false
        if let handle { try writeGuard.leaveQueryOnly(handle) }
        return result
    }

    private static func exec(_ handle: OpaquePointer, _ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let resultCode = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard resultCode != SQLITE_OK else { return }
        var error = SQLiteError(resultCode: resultCode, connection: handle, sql: sql)
        if let errorMessage {
            error = SQLiteError(code: error.code, message: String(cString: errorMessage), sql: sql)
            sqlite3_free(errorMessage)
        }
        throw error
    }

    /// Compiles one statement, not cached: the caller owns it. Throws ``ResultCode/misuse`` when `sql`
    /// holds no statement or more than one (use ``execute(_:)`` for scripts).
    public func prepare(_ sql: String) throws -> Statement {
        try compile(sql, persistent: false)
    }

    private func compile(_ sql: String, persistent: Bool) throws -> Statement {
        let handle = try openHandle()
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        var statementHandle: OpaquePointer?
        var remainder = ""
        let resultCode = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let resultCode = sqlite3_prepare_v3(handle, text, -1, flags, &statementHandle, &tail)
            if let tail, tail.pointee != 0 {
                remainder = String(cString: tail)
            }
            return resultCode
        }
        guard resultCode == SQLITE_OK else {
            sqlite3_finalize(statementHandle)
            throw SQLiteError(resultCode: resultCode, connection: handle, sql: sql)
        }
        guard let statementHandle else {
            throw SQLiteError(code: .misuse, message: "no SQL statement to prepare", sql: sql)
        }
        let statement = Statement(handle: statementHandle, sql: sql, writeGuard: writeGuard)
        if !remainder.isEmpty, !SQLiteConnection.isTrivia(remainder, handle: handle) {
            throw SQLiteError(
                code: .misuse, message: "more than one statement; use execute(_:) for scripts", sql: sql)
        }
        return statement
    }

    /// Whether `sql` holds only whitespace, comments and semicolons.
    private static func isTrivia(_ sql: String, handle: OpaquePointer) -> Bool {
        var statementHandle: OpaquePointer?
        let resultCode = sqlite3_prepare_v2(handle, sql, -1, &statementHandle, nil)
        defer { sqlite3_finalize(statementHandle) }
        return resultCode == SQLITE_OK && statementHandle == nil
    }

    /// Runs `body` with a cached statement for `sql`, reset and with bindings cleared before and after.
    ///
    /// If the cached statement is already in use further up the stack, a fresh one is used instead, so
    /// nesting is safe. Do not let the statement escape `body`.
    public func withStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
        let statement: Statement
        if let cached = statementCache[sql], !cached.isInUse {
            statement = cached
        } else if statementCache[sql] != nil || statementCacheCapacity <= 0 {
            statement = try compile(sql, persistent: false)
        } else {
            statement = try compile(sql, persistent: true)
            if statementCache.count >= statementCacheCapacity {
                statementCache.removeAll()
            }
            statementCache[sql] = statement
        }
        statement.isInUse = true
        defer {
            statement.reset()
            statement.clearBindings()
            statement.isInUse = false
        }
        return try body(statement)
    }

    /// The number of statements currently cached.
    public var cachedStatementCount: Int {
        statementCache.count
    }

    /// Empties the statement cache (statements are finalized once no longer in use).
    public func clearStatementCache() {
        statementCache.removeAll()
    }

    /// Runs one statement with positional arguments (`?`, `?NNN`) to completion.
    public func run(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        try withStatement(sql) { statement in
            try statement.bind(arguments)
            try statement.run()
        }
    }

    /// Runs one statement with named arguments (`:name`, keys with or without the prefix) to completion.
    public func run(_ sql: String, named arguments: [String: SQLiteValue]) throws {
        try withStatement(sql) { statement in
            try statement.bind(arguments)
            try statement.run()
        }
    }

    /// Runs one query with positional arguments and returns all rows.
    public func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [Row] {
        try withStatement(sql) { statement in
            try statement.bind(arguments)
            return try statement.allRows()
        }
    }

    /// Runs one query with named arguments and returns all rows.
    public func query(_ sql: String, named arguments: [String: SQLiteValue]) throws -> [Row] {
        try withStatement(sql) { statement in
            try statement.bind(arguments)
            return try statement.allRows()
        }
    }

    /// Runs one query and returns its first row, or nil when there is none.
    public func queryOne(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Row? {
        try withStatement(sql) { statement in
            try statement.bind(arguments)
            return try statement.step() ? statement.row() : nil
        }
    }

    /// The first column of the first row, or nil when there is no row.
    public func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        try withStatement(sql) { statement in
            try statement.bind(arguments)
            return try statement.step() ? statement.value(at: 0) : nil
        }
    }

    /// The first column of the first row as an integer, or nil when there is no row or it is NULL.
    /// Throws ``ResultCode/mismatch`` when the value is not an integer.
    public func scalarInt(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int? {
        guard let value = try scalar(sql, arguments) else { return nil }
        return try Row(columnNames: [""], values: [value]).optionalInt(0)
    }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// The number of rows changed since the connection was opened.
    public var totalChanges: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_total_changes64(handle))
    }

    // MARK: Transactions

    /// Whether a transaction is open (the connection is not in autocommit mode).
    public var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws.
    ///
    /// `BEGIN IMMEDIATE`/`EXCLUSIVE` that fails with `SQLITE_BUSY` after the busy timeout is retried up to
    /// ``beginRetryLimit`` times with a short backoff. Called inside a transaction, `body` runs in a
    /// savepoint instead (`kind` is then ignored), so transactions nest.
    public func transaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            return try savepoint(body)
        }
        try begin(kind)
        let result: T
        do {
            result = try body()
        } catch {
            rollbackAfterFailure()
            throw error
        }
        do {
            try run("COMMIT TRANSACTION")
        } catch {
            rollbackAfterFailure()
            throw error
        }
        return result
    }

    private func begin(_ kind: TransactionKind) throws {
        if kind == .deferred {
            try run(kind.beginSQL)
        } else {
            try retryingWhileBusy(limit: beginRetryLimit) { try run(kind.beginSQL) }
        }
    }

    /// Runs `body`, again after a short pause each time it fails with `SQLITE_BUSY`, at most `limit` more
    /// times: 5, 10, 20, 40, 80, 100, 100 … ms.
    private func retryingWhileBusy<T>(limit: Int, _ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && attempt < limit && !hooks.isInterrupted {
                attempt += 1
                // On the connection's own thread (see Database), so the sleep holds no cooperative thread.
                let delayMilliseconds = min(5 << min(attempt - 1, 5), 100)
                usleep(UInt32(delayMilliseconds * 1000))
            }
        }
    }

    /// Rolls back after `body` or COMMIT failed. SQLite may already have rolled back (e.g. on
    /// `SQLITE_FULL`); a failing ROLLBACK is not reported because the original error matters more.
    private func rollbackAfterFailure() {
        guard isInTransaction else { return }
        do {
            try run("ROLLBACK TRANSACTION")
        } catch {
            // Ignored: see above. The connection stays usable; SQLite ends the transaction on close.
        }
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "sqlitestore_savepoint_\(savepointDepth)"
        try run("SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
        } catch {
            do {
                try run("ROLLBACK TO SAVEPOINT \(name)")
                try run("RELEASE SAVEPOINT \(name)")
            } catch {
                // Ignored: the outer transaction may already be gone; the original error matters more.
            }
            throw error
        }
        try run("RELEASE SAVEPOINT \(name)")
        return result
    }

    // MARK: Maintenance

    /// Runs `PRAGMA integrity_check`; a healthy database returns `["ok"]`, otherwise one line per problem.
    public func integrityCheck() throws -> [String] {
        try prepare("PRAGMA integrity_check").allRows().map { try $0.string(0) }
    }
}

/// The context of a connection's busy handler: how long to wait for a lock, and whether the access was
/// interrupted (then the wait ends at once).
final class ConnectionHooks {
    /// How many virtual-machine instructions run between two checks of the interruption.
    static let progressInterval: Int32 = 1000
    /// SQLite's own busy-timeout schedule, in milliseconds.
    private static let delays: [Int] = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]

    var busyTimeoutMilliseconds: Int
    var interruption: Interruption?
    private var waitStart = ContinuousClock.now

    init(busyTimeoutMilliseconds: Int) {
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    var isInterrupted: Bool {
        interruption?.isInterrupted ?? false
    }

    /// Called by SQLite on the connection's thread when a lock is taken: sleeps a little and returns true
    /// to try again, or false to fail with `SQLITE_BUSY` (timeout reached, or interrupted).
    func waitAfterBusy(attempt: Int) -> Bool {
        if attempt == 0 { waitStart = .now }
        guard !isInterrupted else { return false }
        let elapsed = ContinuousClock.now - waitStart
        let remaining = Duration.milliseconds(busyTimeoutMilliseconds) - elapsed
        guard remaining > .zero else { return false }
        let delay = min(Duration.milliseconds(Self.delays[min(attempt, Self.delays.count - 1)]), remaining)
        let (seconds, attoseconds) = delay.components
        usleep(UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        return !isInterrupted
    }
}

private let busyHandler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, attempt in
    guard let context else { return 0 }
    let hooks = Unmanaged<ConnectionHooks>.fromOpaque(context).takeUnretainedValue()
    return hooks.waitAfterBusy(attempt: Int(attempt)) ? 1 : 0
}

private let progressHandler: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
    guard let context else { return 0 }
    return Unmanaged<Interruption>.fromOpaque(context).takeUnretainedValue().isInterrupted ? 1 : 0
}

/// A connection wraps a C handle opened with `SQLITE_OPEN_NOMUTEX`: it must stay on one actor.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}

/// Creates `path` with mode 0600 when it does not exist, so the database and the `-wal`/`-shm` files
/// SQLite derives from it are private to the user. Failures (missing directory, permissions) are left
/// for `sqlite3_open_v2`, which reports them with a precise code.
private func createPrivateFileIfMissing(_ path: String) {
    guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
        close(descriptor)
    }
}
