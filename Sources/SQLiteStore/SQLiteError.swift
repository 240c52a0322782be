import CSQLite

/// An error reported by SQLite, or by this wrapper when the SQLite API is misused.
///
/// `message` and `sql` are meant for logs only: they can name tables and columns, so never send them
/// to clients. Bound argument values are never included.
///
/// ```swift
/// do {
///     try connection.run("INSERT INTO user(email) VALUES (?)", [.text(email)])
/// } catch let error as SQLiteError where error.isUniqueViolation {
///     // email already taken
/// }
/// ```
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A coarse classification of an error, for mapping to domain errors in one place.
    public enum Kind: Sendable, Equatable {
        /// Another connection holds a lock (`SQLITE_BUSY` or `SQLITE_LOCKED`); retrying may succeed.
        case busy
        /// A UNIQUE or PRIMARY KEY constraint failed.
        case uniqueViolation
        /// Any other constraint failed (NOT NULL, CHECK, FOREIGN KEY, …).
        case constraintViolation
        /// The disk is full (`SQLITE_FULL`).
        case diskFull
        /// The database or connection is read-only (`SQLITE_READONLY`).
        case readOnly
        /// The file is malformed or not a database (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
        case corrupt
        /// Anything else.
        case other
    }

    /// The result code, extended when SQLite provided one.
    public let code: ResultCode
    /// SQLite's error message (or this wrapper's), for logs only.
    public let message: String
    /// The SQL text of the failing statement, if any, for logs only.
    public let sql: String?

    /// Creates an error. When `message` is nil, SQLite's description of `code` is used.
    public init(code: ResultCode, message: String? = nil, sql: String? = nil) {
        self.code = code
        self.message = message ?? code.description
        self.sql = sql
    }

    /// The error SQLite recorded on a connection handle after a failed call that returned `resultCode`.
    init(resultCode: Int32, connection handle: OpaquePointer?, sql: String? = nil) {
        var code = resultCode
        var message: String?
        if let handle {
            // The handle's extended code is more precise when it refers to the same failure.
            let extended = sqlite3_extended_errcode(handle)
            if extended & 0xFF == resultCode & 0xFF {
                code = extended
            }
            if let text = sqlite3_errmsg(handle) {
                message = String(cString: text)
            }
        }
        self.init(code: ResultCode(rawValue: code), message: message, sql: sql)
    }

    /// The coarse classification of this error.
    public var kind: Kind {
        if isUniqueViolation { return .uniqueViolation }
        if isConstraintViolation { return .constraintViolation }
        if isBusy { return .busy }
        if isDiskFull { return .diskFull }
        if isReadOnly { return .readOnly }
        if isCorrupt { return .corrupt }
        return .other
    }

    /// Whether another connection holds a lock (`SQLITE_BUSY` or `SQLITE_LOCKED`).
    public var isBusy: Bool {
        code.primary == .busy || code.primary == .locked
    }

    /// Whether any constraint failed (`SQLITE_CONSTRAINT` and its extended codes).
    public var isConstraintViolation: Bool {
        code.primary == .constraint
    }

    /// Whether a UNIQUE or PRIMARY KEY constraint failed.
    public var isUniqueViolation: Bool {
        code == .constraintUnique || code == .constraintPrimaryKey
    }

    /// Whether the disk is full (`SQLITE_FULL`).
    public var isDiskFull: Bool {
        code.primary == .full
    }

    /// Whether a write was attempted on a read-only database or connection (`SQLITE_READONLY`).
    public var isReadOnly: Bool {
        code.primary == .readonly
    }

    /// Whether the file is malformed or not a database at all (`SQLITE_CORRUPT` or `SQLITE_NOTADB`).
    public var isCorrupt: Bool {
        code.primary == .corrupt || code.primary == .notADatabase
    }

    /// A one-line description for logs: code, message and SQL (never argument values).
    public var description: String {
        var text = "SQLite error \(code.rawValue) (\(code.primary.description)): \(message)"
        if let sql {
            text += " — while executing `\(sql)`"
        }
        return text
    }
}
