import CSQLite

/// `SQLITE_TRANSIENT`: tells SQLite to copy bound text and blobs before `sqlite3_bind_*` returns.
/// Swift does not import the C macro `((sqlite3_destructor_type)-1)`, so the same bit pattern is built here.
// safe: -1 is a sentinel SQLite compares against and never calls as a function.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self) // safe: sentinel, never called

/// A compiled SQL statement (`sqlite3_stmt`).
///
/// Not `Sendable`: use it only on the actor (or thread) that owns its ``SQLiteConnection``. The statement
/// is finalized when released. It stays valid if its connection is closed first (SQLite keeps the closed
/// handle alive until its last statement is finalized), but stepping it then fails.
///
/// Parameters are 1-based (`?`, `?NNN`) or named (`:name`, `@name`, `$name`).
public final class Statement {
    /// The `sqlite3_stmt` handle.
    let handle: OpaquePointer
    /// The SQL text this statement was compiled from.
    public let sql: String
    private var cachedColumnNames: [String]?
    /// Set while a connection's statement cache has lent this statement out.
    var isInUse = false
    /// The connection's switch for ``SQLiteConnection/refusingWrites(_:)``.
    private let writeGuard: WriteGuard?

    init(handle: OpaquePointer, sql: String, writeGuard: WriteGuard? = nil) {
        self.handle = handle
        self.sql = sql
        self.writeGuard = writeGuard
    }

    deinit {
        sqlite3_finalize(handle)
    }

    private var connectionHandle: OpaquePointer? {
        sqlite3_db_handle(handle)
    }

    func error(_ resultCode: Int32) -> SQLiteError {
        SQLiteError(resultCode: resultCode, connection: connectionHandle, sql: sql)
    }

    /// Refuses `count` positional arguments unless they are one per parameter.
    func checkArgumentCount(_ count: Int) throws {
        guard count == parameterCount else {
            throw SQLiteError(
                code: .range, message: "statement expects \(parameterCount) arguments, got \(count)", sql: sql)
        }
    }

    // MARK: Metadata

    /// The number of bind parameters (the largest parameter index).
    public var parameterCount: Int {
        Int(sqlite3_bind_parameter_count(handle))
    }

    /// The number of result columns (0 for statements that return no data).
    public var columnCount: Int {
        Int(sqlite3_column_count(handle))
    }

    /// The result column names, in order.
    public var columnNames: [String] {
        if let cachedColumnNames {
            return cachedColumnNames
        }
        let names = (0..<Int32(columnCount)).map { index -> String in
            guard let name = sqlite3_column_name(handle, index) else { return "" }
            return String(cString: name)
        }
        cachedColumnNames = names
        return names
    }

    /// How many times SQLite recompiled this statement because the schema or settings changed
    /// (`SQLITE_STMTSTATUS_REPREPARE`).
    public var reprepareCount: Int32 {
        sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
    }

    /// Whether the statement only reads the database (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool {
        sqlite3_stmt_readonly(handle) != 0
    }

    // MARK: Binding

    /// Binds `value` to the 1-based parameter `index`.
    public func bind(_ value: SQLiteValue, at index: Int) throws {
        guard index >= 1, index <= parameterCount else {
            throw SQLiteError(
                code: .range, message: "parameter index \(index) out of range 1...\(parameterCount)", sql: sql)
        }
        let position = Int32(index)
        let resultCode: Int32
        switch value {
        case .null:
            resultCode = sqlite3_bind_null(handle, position)
        case .integer(let integer):
            resultCode = sqlite3_bind_int64(handle, position, integer)
        case .real(let real):
            resultCode = sqlite3_bind_double(handle, position, real)
        case .text(let text):
            let length = UInt64(text.utf8.count)
            // withCString yields a non-nil pointer even for "", so empty text does not become NULL.
            resultCode = text.withCString { pointer in
                sqlite3_bind_text64(handle, position, pointer, length, sqliteTransient, UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                // A nil pointer would bind NULL; a zero-length zeroblob is an empty blob.
                resultCode = sqlite3_bind_zeroblob(handle, position, 0)
            } else {
                resultCode = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(handle, position, buffer.baseAddress, UInt64(buffer.count), sqliteTransient)
                }
            }
        }
        guard resultCode == SQLITE_OK else {
            throw error(resultCode)
        }
    }

    /// Binds `value` to a named parameter. `name` may carry its prefix (`":id"`) or not (`"id"`, then
    /// `:id`, `@id` and `$id` are tried).
    public func bind(_ value: SQLiteValue, named name: String) throws {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds positional arguments to parameters 1...n; the count must equal ``parameterCount``.
    public func bind(_ values: [SQLiteValue]) throws {
        try checkArgumentCount(values.count)
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds named arguments; every key must name a parameter of the statement.
    public func bind(_ values: [String: SQLiteValue]) throws {
        for (name, value) in values {
            try bind(value, named: name)
        }
    }

    /// The 1-based index of a named parameter.
    public func parameterIndex(named name: String) throws -> Int {
        let candidates: [String]
        if let first = name.first, first == ":" || first == "@" || first == "$" {
            candidates = [name]
        } else {
            candidates = [":" + name, "@" + name, "$" + name]
        }
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(handle, candidate)
            if index > 0 {
                return Int(index)
            }
        }
        throw SQLiteError(code: .range, message: "no parameter named '\(name)'", sql: sql)
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: Execution

    /// Evaluates the statement one step: true when a row is available (read it with ``row()``), false
    /// when execution finished.
    @discardableResult
    public func step() throws -> Bool {
        if let writeGuard, writeGuard.refusesWrites, !isReadOnly, let connectionHandle {
            // Rare: a statement that may write (or a pragma) during a read. SQLite decides, in query-only mode.
            try writeGuard.enterQueryOnly(connectionHandle)
        }
        let resultCode = sqlite3_step(handle)
        switch resultCode {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            throw error(resultCode)
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept. Releases any read lock it held.
    public func reset() {
        // The return value repeats the error of the last step, which was already thrown.
        sqlite3_reset(handle)
    }

    /// Steps until done, discarding rows.
    public func run() throws {
        while try step() {}
    }

    /// The value of a 0-based column of the current row.
    public func value(at index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // Ask for the pointer before the length, as SQLite's documentation recommends.
            guard let pointer = sqlite3_column_text(handle, column) else { return .text("") }
            let length = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self))
        case SQLITE_BLOB:
            guard let pointer = sqlite3_column_blob(handle, column) else { return .blob([]) }
            let length = Int(sqlite3_column_bytes(handle, column))
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: length)))
        default:
            return .null
        }
    }

    /// A copy of the current row.
    public func row() -> Row {
        Row(columnNames: columnNames, values: (0..<columnCount).map { value(at: $0) })
    }

    /// Steps until done and returns every row.
    public func allRows() throws -> [Row] {
        var rows: [Row] = []
        while try step() {
            rows.append(row())
        }
        return rows
    }
}

/// `Statement` wraps a C handle owned by one connection and must not cross concurrency domains.
@available(*, unavailable)
extension Statement: Sendable {}

/// Whether a connection is inside ``SQLiteConnection/refusingWrites(_:)``; shared with its statements.
///
/// Statements that only read run as they are. Any other statement switches the connection to
/// `PRAGMA query_only` until the scope ends, so SQLite refuses real writes. The pragma is not set for every
/// read because each change of it expires all the connection's prepared statements.
final class WriteGuard {
    var refusesWrites = false
    private(set) var isQueryOnly = false

    func enterQueryOnly(_ connection: OpaquePointer) throws {
        guard !isQueryOnly else { return }
        try setQueryOnly(true, connection)
    }

    func leaveQueryOnly(_ connection: OpaquePointer) throws {
        guard isQueryOnly else { return }
        try setQueryOnly(false, connection)
    }

    private func setQueryOnly(_ on: Bool, _ connection: OpaquePointer) throws {
        let resultCode = sqlite3_exec(connection, on ? "PRAGMA query_only = 1" : "PRAGMA query_only = 0", nil, nil, nil)
        guard resultCode == SQLITE_OK else { throw SQLiteError(resultCode: resultCode, connection: connection) }
        isQueryOnly = on
    }
}
