#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes JSON bytes directly, for the few result types on hot paths (a page of 20 movies costs
/// `JSONEncoder` hundreds of microseconds; writing the same bytes by hand costs a fraction of that).
///
/// Output matches `ResultEncoding` for the same values: no escaped slashes, raw UTF-8, integral doubles
/// without a fraction. A unit test holds the two to the same JSON for every type that writes itself.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Per open object or array: whether the next member needs a comma before it.
    private var needsComma = BitStack()

    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// A writer that appends to `bytes` (at the top level: nothing open). Let go of other references to the
    /// array, or the first write copies it.
    public init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Appends `literal`, JSON the caller has written in the source (the protocol's envelope around a
    /// result), as it is. For this module only: a value goes through the writer's own methods.
    mutating func fragment(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// The bytes written, without a copy.
    public consuming func takeBytes() -> [UInt8] {
        bytes
    }

    // MARK: Containers

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        open(needingComma: false)
        body(&self)
        close()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes `members` (an object written before by a writer) with more members after its own: its bytes
    /// are copied but for the closing brace, `body` adds the rest, and the object is closed.
    public mutating func object(extending members: EncodedJSON, _ body: (inout JSONWriter) -> Void) {
        separate()
        // Room for a few members more and the reply's end: appending them to a buffer the copy filled
        // exactly would double it, and a queued 13 KB page would hold 26 KB.
        bytes.reserveCapacity(bytes.count + members.bytes.count + Self.roomAfterExtendedObject)
        members.bytes.withUnsafeBufferPointer { bytes.append(contentsOf: $0.dropLast()) }
        open(needingComma: members.bytes.count > 2)  // `{}` has no member to follow
        body(&self)
        close()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes the members of `object` (an object written before by a writer) into the object being written,
    /// after its members so far: copied, not written again.
    public mutating func members(of object: EncodedJSON) {
        guard object.bytes.count > 2 else { return }  // `{}` has none
        separate()
        object.bytes.withUnsafeBufferPointer { bytes.append(contentsOf: $0.dropFirst().dropLast()) }
    }

    /// Bytes reserved after an extended object's copied members (a catalog answer's provenance is about 80).
    static let roomAfterExtendedObject = 256

    public mutating func array<S: Sequence>(_ elements: S, _ body: (inout JSONWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        open(needingComma: false)
        for element in elements { body(&self, element) }
        close()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Starts a member named by an integer's text (`"550":`), as `key(String(int))` would.
    public mutating func key(_ int: Int) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        writeInteger(int)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        setNeedsComma(false)
    }

    /// Starts a member of the current object named in the source (a literal, which needs no escaping:
    /// written as it is, without the check for escapes that a name from data gets); the value written
    /// next belongs to it.
    public mutating func key(_ name: StaticString) {
        assert(name.withUTF8Buffer { !$0.contains(where: Self.needsEscape) }, "a key literal that needs escaping")
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        setNeedsComma(false)
    }

    /// Starts a member named by data (a region code, a favorite's id), escaped as a string value is.
    public mutating func key(text name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        setNeedsComma(false)
    }

    // MARK: Values

    public mutating func value(_ string: String) {
        separate()
        writeString(string)
    }

    public mutating func value(_ int: Int) {
        separate()
        writeInteger(int)
    }

    public mutating func value(_ double: Double) {
        separate()
        if double.isNaN || double.isInfinite {
            bytes.append(contentsOf: "null".utf8)
        } else if double == double.rounded(), abs(double) < 9_007_199_254_740_992 {
            writeInteger(Int(Int64(double)))
        } else {
            bytes.append(contentsOf: double.description.utf8)
        }
    }

    public mutating func value(_ bool: Bool) {
        separate()
        if bool {
            append(UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e"))
        } else {
            append(UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"))
            bytes.append(UInt8(ascii: "e"))
        }
    }

    public mutating func null() {
        separate()
        append(UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l"))
    }

    /// Four bytes. (A string literal's `utf8` went through a cast on every call, and a
    /// static array through a once-check.)
    private mutating func append(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        bytes.append(a)
        bytes.append(b)
        bytes.append(c)
        bytes.append(d)
    }

    /// A string of `count` bytes that `fill` writes in place, every one of them printable ASCII other than
    /// `"` and `\` (a timestamp's digits and separators), so that it needs no escaping and no `String` is
    /// made for it. What `fill` writes is checked: anything else is written escaped.
    public mutating func value(plainASCII count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        let plain = bytes.withUnsafeMutableBufferPointer { all -> Bool in
            let text = UnsafeMutableBufferPointer(rebasing: all[start...])
            fill(text)
            return !text.contains { $0 >= 0x80 || Self.needsEscape($0) }
        }
        if !plain {
            let text = String(decoding: bytes[start...], as: UTF8.self)
            bytes.removeSubrange(start...)
            writeEscaped(text)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func value(_ string: String?) {
        if let string { value(string) } else { null() }
    }

    public mutating func value(_ int: Int?) {
        if let int { value(int) } else { null() }
    }

    public mutating func value(_ ints: [Int]) {
        array(ints) { writer, int in writer.value(int) }
    }

    public mutating func value(_ strings: [String]) {
        array(strings) { writer, string in writer.value(string) }
    }

    /// Appends a JSON value written before (see ``EncodedJSON``); the bytes are copied as they are.
    public mutating func value(_ encoded: EncodedJSON) {
        separate()
        bytes.append(contentsOf: encoded.bytes)
    }

    // MARK: Members (key and value in one call)

    public mutating func member(_ name: StaticString, _ string: String) { key(name); value(string) }
    public mutating func member(_ name: StaticString, _ string: String?) { key(name); value(string) }
    public mutating func member(_ name: StaticString, _ int: Int) { key(name); value(int) }
    public mutating func member(_ name: StaticString, _ int: Int?) { key(name); value(int) }
    public mutating func member(_ name: StaticString, _ double: Double) { key(name); value(double) }
    public mutating func member(_ name: StaticString, _ bool: Bool) { key(name); value(bool) }
    public mutating func member(_ name: StaticString, _ ints: [Int]) { key(name); value(ints) }
    public mutating func member(_ name: StaticString, _ strings: [String]) { key(name); value(strings) }
    public mutating func member(
        _ name: StaticString, plainASCII count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        key(name)
        value(plainASCII: count, fill)
    }

    // MARK: Internals

    private mutating func open(needingComma: Bool) { needsComma.push(needingComma) }
    private mutating func close() { needsComma.pop() }
    private mutating func setNeedsComma(_ needed: Bool) { needsComma.top = needed }

    private mutating func separate() {
        guard !needsComma.isEmpty else { return }
        if needsComma.top {
            bytes.append(UInt8(ascii: ","))
        } else {
            needsComma.top = true
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// An integer's decimal digits, as `String(int)` writes them, without making the string.
    private mutating func writeInteger(_ int: Int) {
        if int < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = int.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    private mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: checked first, they are appended in one go rather than byte by byte
        // (the byte loop was the largest cost of writing a 1,000-favorite list).
        var string = string
        let plain = string.withUTF8 { utf8 in
            guard !utf8.contains(where: Self.needsEscape) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !plain { writeEscaped(string) }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func writeEscaped(_ string: String) {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
    }
}

/// A result type that writes its own JSON (see `JSONWriter`). It stays `Encodable`, and both encodings
/// must give the same JSON.
public protocol JSONWritable: Encodable {
    func write(to writer: inout JSONWriter)
    /// The value's JSON: what `write(to:)` writes, unless the value holds its bytes already (``EncodedJSON``).
    var writtenJSON: [UInt8] { get }
}

extension JSONWritable {
    public var writtenJSON: [UInt8] {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.bytes
    }
}
