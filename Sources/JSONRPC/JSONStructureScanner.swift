/// What ``JSONStructureScanner`` tells of a top-level object's members as it passes them: where each name
/// (its quotes included) and each value are, in the bytes scanned.
protocol TopLevelMemberSink {
    mutating func member(name: Range<Int>, value: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
}

/// Members nobody reads.
struct IgnoredMembers: TopLevelMemberSink {
    func member(name: Range<Int>, value: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {}
}

/// A single pass over a message's bytes, before any decoding: validates them as one RFC 8259 JSON text,
/// bounds nesting depth and, for a batch, finds where each top-level array element starts and ends so each
/// can be decoded on its own; for a single message it tells where its members are (``TopLevelMemberSink``).
///
/// Foundation's `JSONDecoder` is lenient (trailing commas, numbers and escapes checked only when a value is
/// decoded, raw control characters, UTF-16/32 guessed from NUL bytes), so everything it would let through
/// is refused here, where the answer can still be -32700. The bytes must already be valid UTF-8.
enum JSONStructureScanner {
    enum Shape: Equatable {
        case object
        case array(elements: [Range<Int>])
        /// A valid JSON text whose value is a string, number or literal.
        case other
        case empty
    }

    enum Failure: Error, Equatable {
        case tooDeep(limit: Int)
        /// Not one JSON text: `offset` is the byte where the problem was seen.
        case invalid(reason: String, offset: Int)
    }

    /// What the scanner expects next, outside strings.
    private enum Expecting {
        case value
        /// Right after `[`: a value or `]`.
        case valueOrEnd
        /// Right after `{`: a member name or `}`.
        case keyOrEnd
        /// After `,` in an object.
        case key
        case colon
        /// After a member value or an element.
        case commaOrEnd
        /// After the top-level value: only whitespace.
        case nothing
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    static func scan(_ bytes: [UInt8], maxDepth: Int) -> Result<Shape, Failure> {
        bytes.withUnsafeBufferPointer { scan($0, maxDepth: maxDepth) }
    }

    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Result<Shape, Failure> {
        var ignored = IgnoredMembers()
        return scan(bytes, maxDepth: maxDepth, members: &ignored)
    }

    /// Scans as `scan(_:maxDepth:)` does, and for an object also tells `members` where each of its members
    /// is as it passes them (the envelope reader's, so that it need not walk the bytes again). Generic, so
    /// that the call is direct, and nothing at all for `IgnoredMembers`. What `members` was told counts only
    /// when the scan succeeds with `.object`.
    static func scan<Members: TopLevelMemberSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, members: inout Members
    ) -> Result<Shape, Failure> {
        func fail(_ reason: String, _ offset: Int) -> Result<Shape, Failure> {
            .failure(.invalid(reason: reason, offset: offset))
        }
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            // RFC 8259 §8.1 lets a parser refuse a byte order mark; accepting it would mean two spellings of
            // one message, and Foundation and the scanner used to disagree about it.
            return fail("a byte order mark (U+FEFF) is not allowed; send UTF-8 without it", 0)
        }
        // Open containers, innermost last: true for `{`, false for `[`. Its size is the depth, at most
        // `maxDepth`.
        var open = BitStack()
        var expecting = Expecting.value
        var topLevel: UInt8?
        var elements: [Range<Int>] = []
        var elementStart = 0
        // The top-level object's member being scanned: its name, and where its value starts.
        var memberName = 0..<0
        var memberStart = 0
        var index = 0
        let count = bytes.count

        while index < count {
            let byte = bytes[index]
            if isWhitespace(byte) {
                index += 1
                continue
            }
            let start = index
            // Where a complete value ends, when this byte finishes one.
            var valueEnd: Int?
            switch expecting {
            case .value, .valueOrEnd:
                if expecting == .valueOrEnd && byte == UInt8(ascii: "]") {
                    open.pop()
                    index += 1
                    valueEnd = index
                    break
                }
                if topLevel == nil { topLevel = byte }
                if open.count == 1 {
                    if topLevel == UInt8(ascii: "[") { elementStart = start } else { memberStart = start }
                }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    open.push(byte == UInt8(ascii: "{"))
                    if open.count > maxDepth { return .failure(.tooDeep(limit: maxDepth)) }
                    expecting = byte == UInt8(ascii: "{") ? .keyOrEnd : .valueOrEnd
                    index += 1
                case quote:
                    switch scanString(bytes, from: index) {
                    case .success(let end): index = end
                    case .failure(let failure): return .failure(failure)
                    }
                    valueEnd = index
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    switch scanNumber(bytes, from: index) {
                    case .success(let end): index = end
                    case .failure(let failure): return .failure(failure)
                    }
                    valueEnd = index
                case UInt8(ascii: "t"):
                    guard matches(bytes, at: index, "true") else { return fail("expected true", index) }
                    index += 4
                    valueEnd = index
                case UInt8(ascii: "f"):
                    guard matches(bytes, at: index, "false") else { return fail("expected false", index) }
                    index += 5
                    valueEnd = index
                case UInt8(ascii: "n"):
                    guard matches(bytes, at: index, "null") else { return fail("expected null", index) }
                    index += 4
                    valueEnd = index
                default:
                    return fail("expected a value", index)
                }
            case .keyOrEnd, .key:
                if expecting == .keyOrEnd && byte == UInt8(ascii: "}") {
                    open.pop()
                    index += 1
                    valueEnd = index
                    break
                }
                guard byte == quote else { return fail("expected a member name in double quotes", index) }
                switch scanString(bytes, from: index) {
                case .success(let end):
                    if open.count == 1 { memberName = index..<end }
                    index = end
                case .failure(let failure): return .failure(failure)
                }
                expecting = .colon
            case .colon:
                guard byte == UInt8(ascii: ":") else { return fail("expected ':' after a member name", index) }
                index += 1
                expecting = .value
            case .commaOrEnd:
                // `.commaOrEnd` is only set while a container is open.
                let inObject = open.top
                let closer = inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if byte == UInt8(ascii: ",") {
                    index += 1
                    expecting = inObject ? .key : .value
                } else if byte == closer {
                    open.pop()
                    index += 1
                    valueEnd = index
                } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") && index > 0
                    && bytes[index - 1] >= UInt8(ascii: "0") && bytes[index - 1] <= UInt8(ascii: "9")
                {
                    return fail("a number must not have leading zeros", index)
                } else {
                    return fail(closer == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'", index)
                }
            case .nothing:
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") && index > 0
                    && bytes[index - 1] >= UInt8(ascii: "0") && bytes[index - 1] <= UInt8(ascii: "9")
                {
                    return fail("a number must not have leading zeros", index)
                }
                return fail("unexpected data after the JSON value", index)
            }
            if let end = valueEnd {
                if open.isEmpty {
                    expecting = .nothing
                } else {
                    expecting = .commaOrEnd
                    if open.count == 1 {
                        if topLevel == UInt8(ascii: "[") {
                            elements.append(elementStart..<end)
                        } else {
                            members.member(name: memberName, value: memberStart..<end, in: bytes)
                        }
                    }
                }
            }
        }
        switch expecting {
        case .nothing:
            break
        case .value where topLevel == nil:
            return .success(.empty)
        default:
            return fail("unexpected end of the message", count)
        }
        switch topLevel {
        case UInt8(ascii: "{"): return .success(.object)
        case UInt8(ascii: "["): return .success(.array(elements: elements))
        default: return .success(.other)
        }
    }

    /// The index of the first byte from `start` on that ends a run of plain string content (a quote, a
    /// backslash or a control character, below 0x20), or `bytes.count` when none does. Eight bytes at a
    /// time: a byte at a time, strings were a third of scanning a small request.
    @inline(__always)
    static func endOfPlainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        let count = bytes.count
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let special = Self.zeroBytes(word ^ Self.quotes) | Self.zeroBytes(word ^ Self.backslashes)
                | Self.bytesBelow0x20(word)
            if special != 0 { return index + special.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < count {
            let byte = bytes[index]
            if byte == quote || byte == backslash || byte < 0x20 { return index }
            index += 1
        }
        return count
    }

    private static let quotes: UInt64 = 0x2222_2222_2222_2222
    private static let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C

    /// The high bit of each byte of `word` that is zero. Exact up to the first such byte (a borrow can mark
    /// bytes after it), which is all `endOfPlainRun` looks at.
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// The high bit of each byte of `word` below 0x20, exact up to the first such byte as in `zeroBytes`.
    /// Bytes from 0x80 up (UTF-8 beyond ASCII) are not marked: `~word` clears their high bit.
    private static func bytesBelow0x20(_ word: UInt64) -> UInt64 {
        (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
    }

    /// Scans the string starting with the quote at `start`; returns the index after its closing quote.
    private static func scanString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Result<Int, Failure> {
        var index = start + 1
        let count = bytes.count
        while index < count {
            index = endOfPlainRun(bytes, from: index)
            guard index < count else { break }
            let byte = bytes[index]
            if byte == quote { return .success(index + 1) }
            if byte < 0x20 {
                return .failure(.invalid(reason: "a control character in a string must be escaped", offset: index))
            }
            guard byte == backslash else {
                index += 1
                continue
            }
            guard index + 1 < count else { break }
            switch bytes[index + 1] {
            case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 2
            case UInt8(ascii: "u"):
                guard let unit = hexQuad(bytes, at: index + 2) else {
                    return .failure(.invalid(reason: "\\u must be followed by four hex digits", offset: index))
                }
                // Swift strings hold Unicode scalars only, so a lone surrogate could not be decoded later;
                // refusing it here gives a clear parse error instead of Foundation's.
                if unit >= 0xDC00 && unit <= 0xDFFF {
                    return .failure(.invalid(reason: "unpaired UTF-16 surrogate escape", offset: index))
                }
                if unit >= 0xD800 && unit <= 0xDBFF {
                    guard index + 7 < count, bytes[index + 6] == backslash, bytes[index + 7] == UInt8(ascii: "u"),
                        let low = hexQuad(bytes, at: index + 8), low >= 0xDC00 && low <= 0xDFFF
                    else {
                        return .failure(.invalid(reason: "unpaired UTF-16 surrogate escape", offset: index))
                    }
                    index += 12
                } else {
                    index += 6
                }
            default:
                return .failure(.invalid(reason: "invalid escape in a string", offset: index))
            }
        }
        return .failure(.invalid(reason: "unterminated string", offset: start))
    }

    /// The value of four hex digits at `index`, or nil.
    private static func hexQuad(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Scans `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` from `start`; returns the index after it.
    private static func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Result<Int, Failure> {
        var index = start
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            return .failure(.invalid(reason: "expected a digit in a number", offset: index))
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            index = digits(bytes, from: index)
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            let fraction = digits(bytes, from: index + 1)
            guard fraction > index + 1 else {
                return .failure(.invalid(reason: "expected a digit after the decimal point", offset: index + 1))
            }
            index = fraction
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            let exponent = digits(bytes, from: index)
            guard exponent > index else {
                return .failure(.invalid(reason: "expected a digit in the exponent", offset: index))
            }
            index = exponent
        }
        return .success(index)
    }

    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        return index
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        return literal.withUTF8Buffer { expected in
            for offset in 0..<length where bytes[index + offset] != expected[offset] { return false }
            return true
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
