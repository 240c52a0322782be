import Foundation
import Testing

@testable import JSONRPC

/// `JSONWriter`'s own ways of writing numbers, booleans and integer keys give `JSONEncoder`'s bytes.
@Suite struct JSONWriterTests {
    static let integers = [0, 1, -1, 9, 10, -10, 99, 100, 12345, -987_654_321, 1 << 53, Int.max, Int.min, Int.max - 1]

    @Test(arguments: integers)
    func integersAsJSONEncoderWritesThem(_ int: Int) throws {
        var writer = JSONWriter()
        writer.value(int)
        #expect(writer.bytes == Array(try JSONEncoder().encode(int)))
    }

    /// A string written in place is the string `value(_:)` writes; one that turns out to need escapes
    /// (the filler broke its promise) is escaped all the same.
    @Test func plainASCIIWrittenInPlaceIsTheStringItHolds() throws {
        for text in ["2026-12-03T15:04:05.678Z", "", "a\"b\\c", "tab\there", "caf\u{E9}"] {
            var expected = JSONWriter()
            expected.object { $0.member("at", text); $0.member("n", 1) }
            var written = JSONWriter()
            written.object { writer in
                writer.member("at", plainASCII: text.utf8.count) { buffer in
                    for (offset, byte) in text.utf8.enumerated() { buffer[offset] = byte }
                }
                writer.member("n", 1)
            }
            #expect(written.bytes == expected.bytes, "\(text)")
        }
    }

    /// Keys named in the source are written as they are; keys from data are escaped as `JSONEncoder`
    /// escapes them, and the two kinds mix in one object.
    /// Members copied from an object written before sit among members written now with the commas of
    /// writing them all: first, between, last, alone, and none from `{}`.
    @Test func membersCopiedFromAnotherObject() {
        let kept = EncodedJSON(object: { $0.member("a", 1); $0.member("b", "x") }, capacity: 16)
        var written = JSONWriter()
        written.object { writer in
            writer.members(of: kept)
            writer.member("c", true)
            writer.key("inner")
            writer.object { writer in writer.members(of: kept) }
            writer.members(of: EncodedJSON(object: { _ in }))
            writer.members(of: kept)
        }
        #expect(String(decoding: written.bytes, as: UTF8.self)
                == #"{"a":1,"b":"x","c":true,"inner":{"a":1,"b":"x"},"a":1,"b":"x"}"#)
    }

    @Test func literalKeysAndKeysFromData() throws {
        let names = ["plain", "a\"b", "back\\slash", "line\nbreak", "caf\u{E9}", "\u{1}"]
        var writer = JSONWriter()
        writer.object { writer in
            writer.member("first", 0)
            for (index, name) in names.enumerated() {
                writer.key(text: name)
                writer.value(index + 1)
            }
            writer.member("last", true)
        }
        struct Member: Decodable { let first: Int; let last: Bool }
        #expect(try JSONDecoder().decode(Member.self, from: Data(writer.bytes)).last)
        let decoded = try JSONDecoder().decode([String: JSONValue].self, from: Data(writer.bytes))
        for (index, name) in names.enumerated() {
            #expect(decoded[name] == .int(index + 1), "\(name)")
        }
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"first":0,"plain":1,"a\"b":2,"back\\slash":3,"line\nbreak":4,"#))
        #expect(text.hasSuffix(#","last":true}"#))
    }

    @Test func integerKeysBooleansAndNull() throws {
        var writer = JSONWriter()
        writer.object { writer in
            for (index, int) in Self.integers.enumerated() {
                writer.key(int)
                if index % 3 == 0 { writer.null() } else { writer.value(index % 3 == 1) }
            }
        }
        var expected = "{"
        for (index, int) in Self.integers.enumerated() {
            expected += (index > 0 ? "," : "") + "\"\(int)\":" + (index % 3 == 0 ? "null" : index % 3 == 1 ? "true" : "false")
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected + "}")
    }

    /// Commas are kept per open container, in bits for the first 64 levels and past them in an array: every
    /// depth, either side of that line, separates its members as `JSONEncoder` does.
    @Test(arguments: [1, 2, 63, 64, 65, 66, 130])
    func nestedContainersAtEveryDepth(_ depth: Int) throws {
        func nested(_ level: Int) -> JSONValue {
            level == depth ? .array([1, 2]) : .object(["a": nested(level + 1), "b": [.int(level), nested(depth)], "c": true])
        }
        let value = nested(1)
        func write(_ value: JSONValue, _ writer: inout JSONWriter) {
            switch value {
            case .object(let members):
                writer.object { writer in
                    for key in members.keys.sorted() {
                        writer.key(text: key)
                        write(members[key] ?? .null, &writer)
                    }
                }
            case .array(let items): writer.array(items) { writer, item in write(item, &writer) }
            case .int(let int): writer.value(int)
            case .bool(let bool): writer.value(bool)
            default: writer.null()
            }
        }
        var writer = JSONWriter()
        write(value, &writer)
        #expect(writer.bytes == (try ResultEncoding.encodeWithEncoder(value)))
    }

    /// A writer that appends to bytes written before leaves them as they are.
    @Test func appendingToBytesKeepsThem() {
        var writer = JSONWriter(appendingTo: Array("[1,".utf8))
        writer.value("x")
        var bytes = writer.takeBytes()
        bytes.append(UInt8(ascii: "]"))
        #expect(String(decoding: bytes, as: UTF8.self) == #"[1,"x"]"#)
    }

    @Test func integralDoublesAsIntegers() throws {
        for double in [0.0, -3.0, 4_503_599_627_370_496.0, 1.5, -0.25, 1e300] {
            var writer = JSONWriter()
            writer.value(double)
            #expect(writer.bytes == Array(try ResultEncoding.encodeWithEncoder(double)), "\(double)")
        }
    }
}
