/// A Swift type that can be bound as an SQLite argument.
///
/// Conforming: `Int`, `Int64`, `Int32`, `Double`, `String`, `Bool`, `[UInt8]`, `SQLiteValue`, and
/// `Optional` of any of them (`nil` binds `NULL`).
///
/// ```swift
/// try connection.run("INSERT INTO movie(id, title, rating) VALUES (?, ?, ?)",
///                    [SQLiteValue(id), SQLiteValue(title), SQLiteValue(rating)])  // rating: Double?
/// ```
public protocol SQLiteValueConvertible {
    /// The value to bind.
    var sqliteValue: SQLiteValue { get }
}

extension SQLiteValue: SQLiteValueConvertible {
    /// Itself.
    public var sqliteValue: SQLiteValue { self }
}

extension Int: SQLiteValueConvertible {
    /// `.integer`.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int64: SQLiteValueConvertible {
    /// `.integer`.
    public var sqliteValue: SQLiteValue { .integer(self) }
}

extension Int32: SQLiteValueConvertible {
    /// `.integer`.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Double: SQLiteValueConvertible {
    /// `.real`.
    public var sqliteValue: SQLiteValue { .real(self) }
}

extension String: SQLiteValueConvertible {
    /// `.text`.
    public var sqliteValue: SQLiteValue { .text(self) }
}

extension Bool: SQLiteValueConvertible {
    /// `.integer(1)` or `.integer(0)`.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension Array: SQLiteValueConvertible where Element == UInt8 {
    /// `.blob`.
    public var sqliteValue: SQLiteValue { .blob(self) }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    /// The wrapped value's conversion, or `.null`.
    public var sqliteValue: SQLiteValue {
        switch self {
        case .some(let value):
            return value.sqliteValue
        case .none:
            return .null
        }
    }
}
