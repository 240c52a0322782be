#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One JSON value already written by ``JSONWriter``, kept to be served again: as a result its bytes are
/// shared (`ResultEncoding` takes ``writtenJSON`` as it is), inside another value they are copied; either
/// way it is not built and written again.
public struct EncodedJSON: JSONWritable, Sendable, Equatable {
    /// The value's JSON, exactly as ``JSONWriter`` wrote it; a reply shares the array.
    public let bytes: [UInt8]

    /// Writes `value` once and keeps its bytes.
    public init(_ value: some JSONWritable) {
        var writer = JSONWriter(capacity: 4096)
        value.write(to: &writer)
        bytes = writer.bytes
    }

    /// Writes the object `body` fills once and keeps its bytes (in a buffer of `capacity` bytes, more if
    /// they need it).
    public init(object body: (inout JSONWriter) -> Void, capacity: Int = 4096) {
        var writer = JSONWriter(capacity: capacity)
        writer.object(body)
        bytes = writer.bytes
    }

    /// A JSON object's text kept elsewhere (a stored column), to be served as it is: nil unless it is one
    /// RFC 8259 object, at most `maxDepth` deep, on one line (newline framing must never see a raw line
    /// break; inside strings the scanner already refuses them).
    public init?(validatingObject text: String, maxDepth: Int = 64) {
        var text = text
        // Checked in place, copied once: this runs for every event of a page.
        let checked = text.withUTF8 { bytes -> [UInt8]? in
            guard !bytes.contains(UInt8(ascii: "\n")), !bytes.contains(UInt8(ascii: "\r")),
                case .success(.object) = JSONStructureScanner.scan(bytes, maxDepth: maxDepth)
            else { return nil }
            return Array(bytes)
        }
        guard let checked else { return nil }
        bytes = checked
    }

    public func write(to writer: inout JSONWriter) {
        writer.value(self)
    }

    public var writtenJSON: [UInt8] { bytes }

    /// Through an `Encoder` the bytes are read back into a value. No request takes this path
    /// (`ResultEncoding` writes `JSONWritable` results itself); it serves tests that hold a result's two
    /// encodings to the same JSON.
    public func encode(to encoder: any Encoder) throws {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes)).encode(to: encoder)
    }
}
