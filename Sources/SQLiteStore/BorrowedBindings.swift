import CSQLite

/// Positional arguments for ``Statement/run(borrowing:)``: the text of every value is kept in one buffer,
/// which SQLite reads in place instead of copying each value when it is bound (`SQLITE_TRANSIENT` costs a
/// `malloc`, a copy and a `free` per text value; a batch insert binds hundreds).
public struct BorrowedBindings {
    fileprivate enum Slot {
        case null
        case integer(Int64)
        case text(offset: Int, count: Int)
    }

    /// Every text value's UTF-8, one after the other. Starts with one byte, so that the buffer always has an
    /// address: an empty text is bound at it with length 0, never as a nil pointer (which SQLite binds as NULL).
    fileprivate var bytes: [UInt8] = [0]
    fileprivate var slots: [Slot] = []

    public init(values: Int = 0, textBytes: Int = 0) {
        slots.reserveCapacity(values)
        bytes.reserveCapacity(1 + textBytes)
    }

    /// The number of values appended.
    public var count: Int { slots.count }

    public mutating func append(_ text: String) {
        let offset = bytes.count
        // A native string's bytes are copied at once; the view's iterator goes byte by byte.
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
        slots.append(.text(offset: offset, count: bytes.count - offset))
    }

    public mutating func append(_ text: String?) {
        if let text { append(text) } else { appendNull() }
    }

    public mutating func append(_ integer: Int64) {
        slots.append(.integer(integer))
    }

    public mutating func appendNull() {
        slots.append(.null)
    }
}

extension Statement {
    /// Binds `bindings` to parameters 1...n without copying their text, steps until done, then resets the
    /// statement and clears its bindings before returning (also when a step throws): registers may still
    /// point into the buffer until the reset, and the bindings until the clear. The count must equal
    /// ``parameterCount``.
    public func run(borrowing bindings: BorrowedBindings) throws {
        try checkArgumentCount(bindings.count)
        try bindings.bytes.withUnsafeBufferPointer { buffer in
            // safe: SQLite reads the bytes in place (SQLITE_STATIC: a nil destructor) only until the reset and
            // the clear, which happen here, while `buffer` is still valid.
            defer {
                reset()
                clearBindings()
            }
            guard let base = buffer.baseAddress else { throw SQLiteError(code: .misuse, sql: sql) }
            for (offset, slot) in bindings.slots.enumerated() {
                let position = Int32(offset + 1)
                let resultCode: Int32
                switch slot {
                case .null:
                    resultCode = sqlite3_bind_null(handle, position)
                case .integer(let integer):
                    resultCode = sqlite3_bind_int64(handle, position, integer)
                case .text(let start, let count):
                    let text = UnsafeRawPointer(base + start).assumingMemoryBound(to: CChar.self)
                    resultCode = sqlite3_bind_text64(handle, position, text, UInt64(count), nil, UInt8(SQLITE_UTF8))
                }
                guard resultCode == SQLITE_OK else { throw error(resultCode) }
            }
            try run()
        }
    }
}
