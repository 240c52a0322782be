import Foundation
import JSONRPC
import MovieCore

/// A wire type whose one encoding is its `JSONWriter` form. Its `Encodable` conformance (required of
/// results) reads those bytes back instead of listing the fields a second time; no request takes that
/// path, since `ResultEncoding` writes `JSONWritable` results itself. Golden tests hold the bytes.
protocol WireEncodable: JSONWritable {}

extension WireEncodable {
    public func encode(to encoder: any Encoder) throws {
        try JSONDecoder().decode(JSONValue.self, from: Data(writtenJSON)).encode(to: encoder)
    }
}

extension JSONWriter {
    /// `{"source", "fetchedAt", "stale"}` members: where a catalog answer came from.
    mutating func provenance<Value>(_ sourced: Sourced<Value>) {
        member("source", sourced.source.rawValue)
        member("fetchedAt", Timestamp.string(sourced.fetchedAt))
        member("stale", sourced.stale)
    }

    mutating func genres(_ genres: [Genre]) {
        array(genres) { writer, genre in
            writer.object { writer in
                writer.member("id", genre.id)
                writer.member("name", genre.name)
            }
        }
    }
}
