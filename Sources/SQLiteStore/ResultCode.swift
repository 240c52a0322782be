import CSQLite

/// An SQLite result code, primary or extended.
///
/// The low byte of an extended code is its primary code, so `SQLITE_CONSTRAINT_UNIQUE` (2067) has the
/// primary code `SQLITE_CONSTRAINT` (19). Use it in `catch` clauses and `switch` statements:
///
/// ```swift
/// catch let error as SQLiteError where error.code.primary == .constraint { … }
///
/// switch error.code {
/// case .constraintUnique: …   // extended constants match exactly
/// case .busy: …               // primary constants also match their extended codes
/// default: …
/// }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code as returned by the SQLite C API.
    public let rawValue: Int32

    /// Wraps a numeric SQLite result code.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary result code (the low 8 bits of the raw value).
    public var primary: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// Whether this is a primary code (no extended bits set).
    public var isPrimary: Bool {
        rawValue & 0xFF == rawValue
    }

    /// SQLite's English description of the code, e.g. `"constraint failed"`.
    public var description: String {
        guard let text = sqlite3_errstr(rawValue) else {
            return "SQLite result code \(rawValue)"
        }
        return String(cString: text)
    }

    /// Pattern matching for `switch`: a primary pattern matches every extended code sharing its primary
    /// code, an extended pattern matches only itself.
    public static func ~= (pattern: ResultCode, value: ResultCode) -> Bool {
        if pattern.isPrimary {
            return pattern == value.primary
        }
        return pattern == value
    }

    // MARK: Primary codes

    /// `SQLITE_OK`: success.
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR`: generic error (SQL syntax error, missing table, …).
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_INTERNAL`: internal logic error in SQLite.
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    /// `SQLITE_PERM`: access permission denied.
    public static let perm = ResultCode(rawValue: SQLITE_PERM)
    /// `SQLITE_ABORT`: callback routine requested an abort.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY`: the database file is locked by another connection.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a table in the database is locked.
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM`: a memory allocation failed.
    public static let noMem = ResultCode(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY`: attempt to write a read-only database.
    public static let readonly = ResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: operation terminated by `sqlite3_interrupt()`.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: some kind of disk I/O error occurred.
    public static let ioErr = ResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database disk image is malformed.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`: insertion failed because the disk is full.
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: unable to open the database file.
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_SCHEMA`: the database schema changed.
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    /// `SQLITE_TOOBIG`: string or blob exceeds size limit.
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// `SQLITE_CONSTRAINT`: abort due to constraint violation.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`: data type mismatch.
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`: library used incorrectly.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_RANGE`: bind parameter index out of range, or unknown parameter name.
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTADB`: file opened that is not a database file.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    /// `SQLITE_ROW`: `sqlite3_step()` has another row ready.
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    /// `SQLITE_DONE`: `sqlite3_step()` has finished executing.
    public static let done = ResultCode(rawValue: SQLITE_DONE)

    // MARK: Extended codes (values from sqlite3.h; the C macros are expressions Swift does not import)

    /// `SQLITE_CONSTRAINT_CHECK`: a CHECK constraint failed.
    public static let constraintCheck = ResultCode(rawValue: 275)
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a foreign key constraint failed.
    public static let constraintForeignKey = ResultCode(rawValue: 787)
    /// `SQLITE_CONSTRAINT_NOTNULL`: a NOT NULL constraint failed.
    public static let constraintNotNull = ResultCode(rawValue: 1299)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a PRIMARY KEY constraint failed.
    public static let constraintPrimaryKey = ResultCode(rawValue: 1555)
    /// `SQLITE_CONSTRAINT_UNIQUE`: a UNIQUE constraint failed.
    public static let constraintUnique = ResultCode(rawValue: 2067)
    /// `SQLITE_READONLY_DBMOVED`: the database file was moved or unlinked while open.
    public static let readonlyDBMoved = ResultCode(rawValue: 1032)
    /// `SQLITE_BUSY_SNAPSHOT`: a WAL read transaction cannot be upgraded to a write transaction.
    public static let busySnapshot = ResultCode(rawValue: 517)
}
