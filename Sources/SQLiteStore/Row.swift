/// One result row, copied out of SQLite: column names and values.
///
/// Access values by 0-based index or by column name (exact match first, then ASCII case-insensitive, as
/// SQLite treats column names). Typed accessors throw an ``SQLiteError`` with code ``ResultCode/mismatch``
/// when the column is missing, NULL (non-optional accessors only) or of an incompatible type; optional
/// variants return nil for NULL.
public struct Row: Sendable, Hashable {
    /// Column names, in result order.
    public let columnNames: [String]
    /// Column values, in result order.
    public let values: [SQLiteValue]

    /// Creates a row; `columnNames` and `values` must have the same length.
    public init(columnNames: [String], values: [SQLiteValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The value at a 0-based column index, or `.null` when the index is out of range.
    public subscript(index: Int) -> SQLiteValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The value of the named column, or `.null` when there is no such column.
    public subscript(name: String) -> SQLiteValue {
        guard let index = columnIndex(name) else { return .null }
        return values[index]
    }

    /// Whether the row has a column with this name.
    public func hasColumn(_ name: String) -> Bool {
        columnIndex(name) != nil
    }

    /// The 0-based index of the named column.
    public func columnIndex(_ name: String) -> Int? {
        if let index = columnNames.firstIndex(of: name) {
            return index
        }
        let folded = Row.asciiLowercased(name)
        return columnNames.firstIndex { Row.asciiLowercased($0) == folded }
    }

    // MARK: Typed accessors by index

    /// The integer at `index`; REAL values with an exact integer value are accepted.
    public func int(_ index: Int) throws -> Int { try required(index, "Int", Row.toInt) }
    /// The 64-bit integer at `index`.
    public func int64(_ index: Int) throws -> Int64 { try required(index, "Int64", Row.toInt64) }
    /// The floating point number at `index`; INTEGER values are converted.
    public func double(_ index: Int) throws -> Double { try required(index, "Double", Row.toDouble) }
    /// The text at `index`.
    public func string(_ index: Int) throws -> String { try required(index, "String", Row.toString) }
    /// The boolean at `index` (an INTEGER, non-zero is true).
    public func bool(_ index: Int) throws -> Bool { try required(index, "Bool", Row.toBool) }
    /// The bytes at `index`.
    public func blob(_ index: Int) throws -> [UInt8] { try required(index, "[UInt8]", Row.toBlob) }

    /// The integer at `index`, or nil for NULL.
    public func optionalInt(_ index: Int) throws -> Int? { try optional(index, "Int", Row.toInt) }
    /// The 64-bit integer at `index`, or nil for NULL.
    public func optionalInt64(_ index: Int) throws -> Int64? { try optional(index, "Int64", Row.toInt64) }
    /// The floating point number at `index`, or nil for NULL.
    public func optionalDouble(_ index: Int) throws -> Double? { try optional(index, "Double", Row.toDouble) }
    /// The text at `index`, or nil for NULL.
    public func optionalString(_ index: Int) throws -> String? { try optional(index, "String", Row.toString) }
    /// The boolean at `index`, or nil for NULL.
    public func optionalBool(_ index: Int) throws -> Bool? { try optional(index, "Bool", Row.toBool) }
    /// The bytes at `index`, or nil for NULL.
    public func optionalBlob(_ index: Int) throws -> [UInt8]? { try optional(index, "[UInt8]", Row.toBlob) }

    // MARK: Typed accessors by name

    /// The integer in column `name`; REAL values with an exact integer value are accepted.
    public func int(_ name: String) throws -> Int { try int(index(of: name)) }
    /// The 64-bit integer in column `name`.
    public func int64(_ name: String) throws -> Int64 { try int64(index(of: name)) }
    /// The floating point number in column `name`; INTEGER values are converted.
    public func double(_ name: String) throws -> Double { try double(index(of: name)) }
    /// The text in column `name`.
    public func string(_ name: String) throws -> String { try string(index(of: name)) }
    /// The boolean in column `name` (an INTEGER, non-zero is true).
    public func bool(_ name: String) throws -> Bool { try bool(index(of: name)) }
    /// The bytes in column `name`.
    public func blob(_ name: String) throws -> [UInt8] { try blob(index(of: name)) }

    /// The integer in column `name`, or nil for NULL.
    public func optionalInt(_ name: String) throws -> Int? { try optionalInt(index(of: name)) }
    /// The 64-bit integer in column `name`, or nil for NULL.
    public func optionalInt64(_ name: String) throws -> Int64? { try optionalInt64(index(of: name)) }
    /// The floating point number in column `name`, or nil for NULL.
    public func optionalDouble(_ name: String) throws -> Double? { try optionalDouble(index(of: name)) }
    /// The text in column `name`, or nil for NULL.
    public func optionalString(_ name: String) throws -> String? { try optionalString(index(of: name)) }
    /// The boolean in column `name`, or nil for NULL.
    public func optionalBool(_ name: String) throws -> Bool? { try optionalBool(index(of: name)) }
    /// The bytes in column `name`, or nil for NULL.
    public func optionalBlob(_ name: String) throws -> [UInt8]? { try optionalBlob(index(of: name)) }

    // MARK: Decoding

    private func index(of name: String) throws -> Int {
        guard let index = columnIndex(name) else {
            throw SQLiteError(code: .mismatch, message: "no column named '\(name)' in row")
        }
        return index
    }

    private func columnLabel(_ index: Int) -> String {
        columnNames.indices.contains(index) ? "'\(columnNames[index])'" : "#\(index)"
    }

    private func optional<T>(_ index: Int, _ typeName: String, _ convert: (SQLiteValue) -> T?) throws -> T? {
        guard values.indices.contains(index) else {
            throw SQLiteError(code: .mismatch, message: "column index \(index) out of range 0..<\(count)")
        }
        let value = values[index]
        if value.isNull {
            return nil
        }
        guard let converted = convert(value) else {
            throw SQLiteError(
                code: .mismatch,
                message: "column \(columnLabel(index)) holds \(Row.storageClass(value)), expected \(typeName)")
        }
        return converted
    }

    private func required<T>(_ index: Int, _ typeName: String, _ convert: (SQLiteValue) -> T?) throws -> T {
        guard let value = try optional(index, typeName, convert) else {
            throw SQLiteError(code: .mismatch, message: "column \(columnLabel(index)) is NULL, expected \(typeName)")
        }
        return value
    }

    private static func toInt64(_ value: SQLiteValue) -> Int64? {
        switch value {
        case .integer(let integer): return integer
        case .real(let real): return Int64(exactly: real)
        default: return nil
        }
    }

    private static func toInt(_ value: SQLiteValue) -> Int? {
        toInt64(value).flatMap { Int(exactly: $0) }
    }

    private static func toDouble(_ value: SQLiteValue) -> Double? {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: return nil
        }
    }

    private static func toString(_ value: SQLiteValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }

    private static func toBool(_ value: SQLiteValue) -> Bool? {
        if case .integer(let integer) = value { return integer != 0 }
        return nil
    }

    private static func toBlob(_ value: SQLiteValue) -> [UInt8]? {
        if case .blob(let bytes) = value { return bytes }
        return nil
    }

    private static func storageClass(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
