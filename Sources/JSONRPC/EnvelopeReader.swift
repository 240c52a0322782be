#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a request's envelope members (`jsonrpc`, `method`, `id`, `params`, `result`, `error`) straight
/// from the bytes of one JSON object that ``JSONStructureScanner`` has already accepted: for a single message
/// from the members the scanner noted as it passed them (``Members``), for a batch's element by walking them.
///
/// `JSONDecoder` did this before, at about a third of the reading thread's work per small request, and
/// more on the first one (its generic machinery is set up on first use). What it decided is kept exactly: the first of
/// duplicate members wins, keys may be escaped (`"met\u0068od"`), and an id is an integer when its value is
/// integral and fits `Int` however it is spelled (`1.0`, `1e2`), as `JSONDecoder` decodes `Int`.
/// Values are skipped by their structure, never decoded, except the few strings and the id read here.
enum EnvelopeReader {
    /// The envelope of `object`, or nil when the bytes are not one JSON object (the scanner's job, so a
    /// nil here is a defect the caller answers as a parse error rather than a crash).
    static func read(_ object: UnsafeBufferPointer<UInt8>) -> MessageEnvelope? {
        var reader = Cursor(bytes: object)
        var members = Members()
        reader.skipWhitespace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        reader.skipWhitespace()
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                reader.skipWhitespace()
                guard let key = reader.memberName() else { return nil }
                reader.skipWhitespace()
                guard reader.take(UInt8(ascii: ":")) else { return nil }
                reader.skipWhitespace()
                let start = reader.offset
                guard reader.skipValue() else { return nil }
                members.record(key, start..<reader.offset)
                reader.skipWhitespace()
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        return members.envelope(in: object)
    }

    /// A member's name, as far as the envelope cares.
    enum MemberName {
        case jsonrpc, method, id, params, result, error, other

        /// The name spelled by `text` (unescaped), compared as Swift compares strings.
        init(_ text: String) {
            switch text {
            case "jsonrpc": self = .jsonrpc
            case "method": self = .method
            case "id": self = .id
            case "params": self = .params
            case "result": self = .result
            case "error": self = .error
            default: self = .other
            }
        }

        /// The name spelled by `bytes`, plain ASCII without escapes: byte for byte, which for such text is
        /// what the comparison of strings decides, without building one.
        init(plainASCII bytes: UnsafeBufferPointer<UInt8>) {
            switch Self.packed(bytes) {
            case Self.names.jsonrpc: self = .jsonrpc
            case Self.names.method: self = .method
            case Self.names.id: self = .id
            case Self.names.params: self = .params
            case Self.names.result: self = .result
            case Self.names.error: self = .error
            default: self = .other
            }
        }

        /// The six names, each packed as `packed` packs a key.
        private static let names = (
            jsonrpc: packed("jsonrpc"), method: packed("method"), id: packed("id"), params: packed("params"),
            result: packed("result"), error: packed("error"))

        /// Up to seven bytes and their count in one integer, so that a key is compared with a name at once;
        /// 0 (no name's) for a longer key.
        private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            guard bytes.count <= 7 else { return 0 }
            var packed = UInt64(bytes.count) << 56
            var shift: UInt64 = 0
            for byte in bytes {
                packed |= UInt64(byte) &<< shift
                shift &+= 8
            }
            return packed
        }

        private static func packed(_ name: StaticString) -> UInt64 {
            name.withUTF8Buffer(packed)
        }
    }

    /// The value ranges of the members an envelope needs; the first occurrence of a name wins. Filled by
    /// `read`'s walk, or by the structure scanner as it passes the members (then nothing walks them again).
    struct Members: TopLevelMemberSink {
        var jsonrpc: Range<Int>?
        var method: Range<Int>?
        var id: Range<Int>?
        var params: Range<Int>?
        var hasResult = false
        var hasError = false

        mutating func member(name: Range<Int>, value: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
            var cursor = Cursor(bytes: bytes, offset: name.lowerBound)
            // The scanner has checked that a name is a string here.
            if let key = cursor.memberName() { record(key, value) }
        }

        mutating func record(_ key: MemberName, _ value: Range<Int>) {
            switch key {
            case .jsonrpc: if jsonrpc == nil { jsonrpc = value }
            case .method: if method == nil { method = value }
            case .id: if id == nil { id = value }
            case .params: if params == nil { params = value }
            case .result: hasResult = true
            case .error: hasError = true
            case .other: break
            }
        }

        func envelope(in bytes: UnsafeBufferPointer<UInt8>) -> MessageEnvelope {
            func stringValue(_ range: Range<Int>?) -> String? {
                guard let range else { return nil }
                var cursor = Cursor(bytes: bytes, offset: range.lowerBound)
                return cursor.string()
            }
            let methodMember = method != nil
            return MessageEnvelope(
                isVersion2: jsonrpc.map { Self.isVersion2(bytes, $0) } ?? false,
                method: stringValue(method),
                methodMember: methodMember,
                id: id.map { Self.idMember(bytes, $0) } ?? .absent,
                params: params.map { Self.paramsMember(bytes, $0) } ?? .absent,
                paramsRange: params,
                isResponse: !methodMember && (hasResult || hasError))
        }

        /// Whether the value at `range` is the string "2.0": byte for byte as nearly every client spells it,
        /// without building a string; otherwise (escapes) read as one.
        private static func isVersion2(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
            let plain: (UInt8, UInt8, UInt8, UInt8, UInt8) = (0x22, 0x32, 0x2E, 0x30, 0x22)  // "2.0"
            if range.count == 5, bytes[range.lowerBound] == plain.0, bytes[range.lowerBound + 1] == plain.1,
                bytes[range.lowerBound + 2] == plain.2, bytes[range.lowerBound + 3] == plain.3,
                bytes[range.lowerBound + 4] == plain.4
            {
                return true
            }
            guard bytes[range.lowerBound] == UInt8(ascii: "\"") else { return false }
            var cursor = Cursor(bytes: bytes, offset: range.lowerBound)
            return cursor.string() == "2.0"
        }

        private static func idMember(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> MessageEnvelope.IDMember {
            switch bytes[range.lowerBound] {
            case UInt8(ascii: "n"):
                return .null
            case UInt8(ascii: "\""):
                var cursor = Cursor(bytes: bytes, offset: range.lowerBound)
                return cursor.string().map { .valid(.string($0)) } ?? .invalid
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return integer(UnsafeBufferPointer(rebasing: bytes[range])).map { .valid(.int($0)) } ?? .invalid
            default:
                return .invalid
            }
        }

        private static func paramsMember(
            _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
        ) -> MessageEnvelope.ParamsMember {
            switch bytes[range.lowerBound] {
            case UInt8(ascii: "n"):
                return .null
            case UInt8(ascii: "{"):
                return .object
            case UInt8(ascii: "["):
                var cursor = Cursor(bytes: bytes, offset: range.lowerBound + 1)
                cursor.skipWhitespace()
                return .array(isEmpty: cursor.peek == UInt8(ascii: "]"))
            default:
                return .invalid
            }
        }

        /// A JSON number as `Int`, when its value is integral and in range, by `JSONDecoder`'s rules.
        private static func integer(_ literal: UnsafeBufferPointer<UInt8>) -> Int? {
            let isPlainInteger = !literal.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            if isPlainInteger { return EnvelopeReader.plainInteger(literal) }
            // `1.0` or `1e2`: rare, and JSONDecoder's rules for them (through Double, then Decimal beyond
            // 2^53) are subtle, so it decides them itself.
            return try? JSONDecoder().decode(Int.self, from: Data(literal))
        }
    }

    /// The value of `-?[0-9]+` (the scanner has checked the grammar), nil beyond `Int`'s range.
    static func plainInteger(_ literal: UnsafeBufferPointer<UInt8>) -> Int? {
        let negative = literal.first == UInt8(ascii: "-")
        let digits = literal.dropFirst(negative ? 1 : 0)
        guard !digits.isEmpty else { return nil }
        // Accumulated negatively, so that Int.min, whose magnitude Int cannot hold, is read too.
        var value = 0
        for byte in digits {
            let digit = Int(byte &- UInt8(ascii: "0"))
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
        }
        if negative { return value }
        let (positive, overflow) = (0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }

    /// A position in the bytes of one validated JSON text.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            offset += 1
            return true
        }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        /// Moves past one value of any kind; false when the bytes end first.
        mutating func skipValue() -> Bool {
            guard let first = peek else { return false }
            switch first {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                // Brackets inside strings do not count; the scanner has already checked that they pair up.
                var depth = 0
                while let byte = peek {
                    switch byte {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            offset += 1
                            return true
                        }
                    default:
                        break
                    }
                    offset += 1
                }
                return false
            default:
                // A number or a literal: it ends at a delimiter or whitespace.
                while let byte = peek, byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "]"),
                      byte != 0x20, byte != 0x0A, byte != 0x0D, byte != 0x09 {
                    offset += 1
                }
                return true
            }
        }

        /// Moves past a string starting at the current quote.
        private mutating func skipString() -> Bool {
            offset += 1
            while true {
                offset = JSONStructureScanner.endOfPlainRun(bytes, from: offset)
                guard let byte = peek else { return false }
                offset += 1
                if byte == UInt8(ascii: "\\") {
                    offset += 1
                } else if byte == UInt8(ascii: "\"") {
                    return true
                }
            }
        }

        /// Reads the member name starting at the current quote; nil when there is no string here. A name of
        /// plain ASCII without escapes, as members' names almost always are, is compared without a String.
        mutating func memberName() -> MemberName? {
            guard peek == UInt8(ascii: "\"") else { return nil }
            let start = offset + 1
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") {
                    offset = end + 1
                    return MemberName(plainASCII: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                }
                if byte == UInt8(ascii: "\\") || byte >= 0x80 { break }
                end += 1
            }
            return string().map(MemberName.init)
        }

        /// Reads the string starting at the current quote, unescaped; nil when there is no string here.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = offset
            var escaped = false
            while true {
                offset = JSONStructureScanner.endOfPlainRun(bytes, from: offset)
                guard let byte = peek, byte != UInt8(ascii: "\"") else { break }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    offset += 1
                }
                offset += 1
            }
            guard offset < bytes.count else { return nil }
            let content = UnsafeBufferPointer(rebasing: bytes[start..<offset])
            offset += 1
            return escaped ? Self.unescape(content) : String(decoding: content, as: UTF8.self)
        }

        /// The text of string content with JSON escapes; the scanner has refused bad escapes and unpaired
        /// surrogates, so anything unexpected here becomes U+FFFD rather than a failure.
        private static func unescape(_ content: UnsafeBufferPointer<UInt8>) -> String {
            var scalars = String.UnicodeScalarView()
            var utf8: [UInt8] = []
            var index = 0
            func flush() {
                guard !utf8.isEmpty else { return }
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll(keepingCapacity: true)
            }
            func hex4(at position: Int) -> UInt32? {
                guard position + 4 <= content.count else { return nil }
                var value: UInt32 = 0
                for byte in content[position..<position + 4] {
                    guard let digit = hexDigit(byte) else { return nil }
                    value = value << 4 | digit
                }
                return value
            }
            while index < content.count {
                let byte = content[index]
                guard byte == UInt8(ascii: "\\"), index + 1 < content.count else {
                    utf8.append(byte)
                    index += 1
                    continue
                }
                flush()
                let escape = content[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard let unit = hex4(at: index) else {
                        scalars.append("\u{FFFD}")
                        continue
                    }
                    index += 4
                    if (0xD800..<0xDC00).contains(unit), index + 6 <= content.count,
                       content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u"),
                       let low = hex4(at: index + 2), (0xDC00..<0xE000).contains(low) {
                        index += 6
                        scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}")
                    } else {
                        scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                    }
                default:
                    // `"`, `\` and `/` stand for themselves.
                    scalars.append(Unicode.Scalar(escape))
                }
            }
            flush()
            return String(scalars)
        }

        private static func hexDigit(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }
    }
}
