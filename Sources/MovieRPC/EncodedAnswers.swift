#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC
import MovieCore
import Synchronization

/// The members of hot catalog answers (a page of movies, details, the genres), written once per stored
/// copy instead of once per request: a cached page is 13 KB of JSON that `JSONWriter` built again for every
/// call. The provenance members (`source`, `fetchedAt`, `stale`) are written per request after them.
///
/// An entry holds for the copy it was written from: the copy's `fetchedAt` (a new fetch or another stored
/// copy writes it again), or, for the embedded demo catalog, whose answers never change, for good. Answers
/// that may be partial (the offline index's) are not kept. At most `capacity` entries; a full cache drops
/// one to take a new one.
final class EncodedAnswers: Sendable {
    /// Every parameter that changes an answer's bytes: the catalog request (what its cache key holds) and
    /// how the answer is shown. Hashed as it is: no key string is built per request.
    struct Key: Hashable, Sendable {
        enum Shape: Hashable, Sendable {
            case genres
            case page(ImageSizes)
            case details(ImageSizes, parts: Set<DetailsPart>, region: String?)
        }

        var request: CatalogRequest
        var shape: Shape
    }

    private struct Entry: Sendable {
        let stamp: Date
        let members: EncodedJSON
    }

    private let entries = Mutex<[Key: Entry]>([:])
    let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The object `write` fills for the answer `key` (every parameter that changes the bytes) taken from
    /// `sourced`'s copy, from the cache when that copy's were written before.
    func members<Value>(
        _ key: Key, _ sourced: Sourced<Value>, write: (inout JSONWriter) -> Void
    ) -> EncodedJSON {
        guard sourced.complete else { return EncodedJSON(object: write) }
        let stamp = sourced.source == .demo ? Date.distantPast : sourced.fetchedAt
        if let entry = entries.withLock({ $0[key] }), entry.stamp == stamp { return entry.members }
        let members = EncodedJSON(object: write)
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[key] = Entry(stamp: stamp, members: members)
        }
        return members
    }

    /// The members `write` fills, from `answers` under `key` when both are given, else written anew.
    static func members<Value>(
        in answers: EncodedAnswers?, key: Key?, _ sourced: Sourced<Value>, write: (inout JSONWriter) -> Void
    ) -> EncodedJSON {
        guard let answers, let key else { return EncodedJSON(object: write) }
        return answers.members(key, sourced, write: write)
    }

    var count: Int { entries.withLock { $0.count } }
}
