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

    @Test func integralDoublesAsIntegers() throws {
        for double in [0.0, -3.0, 4_503_599_627_370_496.0, 1.5, -0.25, 1e300] {
            var writer = JSONWriter()
            writer.value(double)
            #expect(writer.bytes == Array(try ResultEncoding.encodeWithEncoder(double)), "\(double)")
        }
    }
}
