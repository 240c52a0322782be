#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

/// Where a catalog answer came from, apart from the answer: what a result whose members are kept
/// (``EncodedAnswers``) writes per request, so it need not hold (and copy) the answer itself.
struct Provenance: Sendable {
    var source: CatalogSourceKind
    var fetchedAt: Date
    var stale: Bool
    /// `source` and `fetchedAt` as ``origin(of:)`` wrote them, when kept with the stored copy: copied into
    /// the answer instead of written again (the timestamp was most of a cached answer's own work).
    var origin: EncodedJSON?

    init<Value>(_ sourced: Sourced<Value>, origin: EncodedJSON? = nil) {
        source = sourced.source
        fetchedAt = sourced.fetchedAt
        stale = sourced.stale
        self.origin = origin
    }

    /// The `source` and `fetchedAt` members of `sourced`'s answers, as an object.
    static func origin<Value>(of sourced: Sourced<Value>) -> EncodedJSON {
        EncodedJSON(object: { writer in writer.origin(sourced.source, fetchedAt: sourced.fetchedAt) }, capacity: 96)
    }
}

extension JSONWriter {
    /// `{"source", "fetchedAt", "stale"}` members: where a catalog answer came from.
    mutating func provenance<Value>(_ sourced: Sourced<Value>) {
        provenance(Provenance(sourced))
    }

    mutating func provenance(_ provenance: Provenance) {
        if let origin = provenance.origin {
            members(of: origin)
        } else {
            self.origin(provenance.source, fetchedAt: provenance.fetchedAt)
        }
        member("stale", provenance.stale)
    }

    /// `"source"` and `"fetchedAt"`: the part of a provenance fixed for a stored copy and source.
    mutating func origin(_ source: CatalogSourceKind, fetchedAt: Date) {
        member("source", source.rawValue)
        member("fetchedAt", timestamp: fetchedAt)
    }

    /// A timestamp member written straight into the reply (``Timestamp``'s format): making its `String` and
    /// then checking it for escapes was most of writing a catalog answer's provenance.
    mutating func member(_ name: StaticString, timestamp date: Date) {
        let millis = Timestamp.millis(date)
        guard Timestamp.isWritable(millis: millis) else { return member(name, Timestamp.string(millis: millis)) }
        member(name, plainASCII: Timestamp.length) { Timestamp.write(millis: millis, into: $0) }
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
