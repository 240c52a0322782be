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
/// call. Of the provenance members, `source` and `fetchedAt` are kept beside them for the last source the copy
/// was served as (``Provenance/origin``); `stale`, which changes with time, is written per request.
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
        /// The `source` and `fetchedAt` members of the last answer served from this copy, and its source
        /// (the copy's fetch answers as `network`, every later read as `cache`).
        var origin: (source: CatalogSourceKind, members: EncodedJSON)?
    }

    private let entries = Mutex<[Key: Entry]>([:])
    let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The object `write` fills for the answer `key` (every parameter that changes the bytes) taken from
    /// `sourced`'s copy, and the answer's provenance: both from the cache when that copy's were written before.
    func answer<Value>(
        _ key: Key, _ sourced: Sourced<Value>, write: (inout JSONWriter) -> Void
    ) -> (members: EncodedJSON, provenance: Provenance) {
        guard sourced.complete else { return (EncodedJSON(object: write), Provenance(sourced)) }
        // The demo catalog's answers never change, but each says when it was made: no origin is kept for them.
        let keepsOrigin = sourced.source != .demo
        let stamp = keepsOrigin ? sourced.fetchedAt : Date.distantPast
        if let entry = entries.withLock({ $0[key] }), entry.stamp == stamp {
            guard keepsOrigin else { return (entry.members, Provenance(sourced)) }
            if let origin = entry.origin, origin.source == sourced.source {
                return (entry.members, Provenance(sourced, origin: origin.members))
            }
            let origin = Provenance.origin(of: sourced)
            entries.withLock { entries in
                if entries[key]?.stamp == stamp { entries[key]?.origin = (sourced.source, origin) }
            }
            return (entry.members, Provenance(sourced, origin: origin))
        }
        let members = EncodedJSON(object: write)
        let origin = keepsOrigin ? Provenance.origin(of: sourced) : nil
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[key] = Entry(stamp: stamp, members: members, origin: origin.map { (sourced.source, $0) })
        }
        return (members, Provenance(sourced, origin: origin))
    }

    /// The members `write` fills and the provenance, from `answers` under `key` when both are given, else
    /// written anew.
    static func answer<Value>(
        in answers: EncodedAnswers?, key: Key?, _ sourced: Sourced<Value>, write: (inout JSONWriter) -> Void
    ) -> (members: EncodedJSON, provenance: Provenance) {
        guard let answers, let key else { return (EncodedJSON(object: write), Provenance(sourced)) }
        return answers.answer(key, sourced, write: write)
    }

    var count: Int { entries.withLock { $0.count } }
}
