import Foundation

/// One JSON value already written by ``JSONWriter``, kept to be served again: writing it copies the bytes,
/// so a cached result costs a copy instead of being built and written again.
public struct EncodedJSON: JSONWritable, Sendable, Equatable {
    /// The value's JSON, exactly as ``JSONWriter`` wrote it.
    public let bytes: [UInt8]

    /// Writes `value` once and keeps its bytes.
    public init(_ value: some JSONWritable) {
        var writer = JSONWriter(capacity: 4096)
        value.write(to: &writer)
        bytes = writer.bytes
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
