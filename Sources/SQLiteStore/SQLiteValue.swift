/// A value stored in, bound to, or read from SQLite, one case per SQLite storage class.
///
/// Literals work directly: `[1, 2.5, "text", true, nil]` is a valid `[SQLiteValue]`. Swift values convert
/// with `SQLiteValue(x)` or `x.sqliteValue` (see ``SQLiteValueConvertible``).
public enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit IEEE floating point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// Converts any ``SQLiteValueConvertible`` value (`Int`, `String`, `Bool?`, …).
    public init(_ value: some SQLiteValueConvertible) {
        self = value.sqliteValue
    }

    /// Whether this is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension SQLiteValue: ExpressibleByNilLiteral {
    /// `nil` is SQL `NULL`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
    /// An integer literal is an `.integer`.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
    /// A floating point literal is a `.real`.
    public init(floatLiteral value: Double) {
        self = .real(value)
    }
}

extension SQLiteValue: ExpressibleByStringLiteral {
    /// A string literal is a `.text`.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
    /// `true` is `.integer(1)`, `false` is `.integer(0)` (SQLite has no boolean type).
    public init(booleanLiteral value: Bool) {
        self = .integer(value ? 1 : 0)
    }
}

extension SQLiteValue: CustomStringConvertible {
    /// A short SQL-like rendering: `NULL`, `42`, `1.5`, `'text'`, `x'0aff'`.
    public var description: String {
        switch self {
        case .null:
            return "NULL"
        case .integer(let value):
            return String(value)
        case .real(let value):
            return String(value)
        case .text(let value):
            return "'" + value.replacingAll("'", with: "''") + "'"
        case .blob(let bytes):
            let digits = Array("0123456789abcdef")
            var hex = ""
            hex.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return "x'" + hex + "'"
        }
    }
}

extension String {
    /// Replaces every occurrence of a character (kept local so Sources need no Foundation).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target {
                result += replacement
            } else {
                result.append(character)
            }
        }
        return result
    }
}
