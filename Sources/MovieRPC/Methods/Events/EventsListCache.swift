import JSONRPC
import MovieCore
import Synchronization

/// `events.list` answers already written, per request, each kept with the log's ``EventRevision`` it was
/// read at. A request reads the viewer and the current revision together (one small read, see
/// `MovieServices.revisedEventList`) and serves the kept bytes only when both match: an event added,
/// recorded (flushed before the read), deleted, pruned or updated by any process changes the revision,
/// and the key holds the viewer, so users never share a page. A 50-event page then costs a copy instead
/// of a query and a rewrite.
final class EventsListCache: Sendable {
    /// Which answer: everything that decides the bytes besides the stored events.
    struct Key: Hashable, Sendable {
        var viewer: EventViewer
        var filter: EventFilter
        var limit: Int
        var cursor: EventCursor?
    }

    private struct Entry: Sendable {
        var revision: EventRevision
        var json: EncodedJSON
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys oldest first, for eviction.
        var order: [Key] = []
        var bytes = 0
    }

    /// A few pages (a client refreshing its first page or two, a filter or two).
    static let capacity = 8
    /// At most this many bytes kept in all; a larger page is not kept (a page may be ~1 MiB).
    static let maxBytes = 1 << 20

    private let state = Mutex(State())

    /// The kept answer for `key` if it was read at `revision`.
    func answer(for key: Key, revision: EventRevision) -> EncodedJSON? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.revision == revision else { return nil }
            return entry.json
        }
    }

    /// Keeps `json`, read at `revision`, for `key`. Answers at another revision go: revisions never come
    /// back, so they could only be served again after a change that made them wrong.
    func keep(_ json: EncodedJSON, for key: Key, revision: EventRevision) {
        let size = json.bytes.count
        guard size <= Self.maxBytes else { return }
        state.withLock { state in
            if state.entries.values.contains(where: { $0.revision != revision }) {
                state = State()
            }
            if let old = state.entries.removeValue(forKey: key) {
                state.bytes -= old.json.bytes.count
                state.order.removeAll { $0 == key }
            }
            while !state.order.isEmpty, state.order.count >= Self.capacity || state.bytes + size > Self.maxBytes {
                let oldest = state.order.removeFirst()
                state.bytes -= state.entries.removeValue(forKey: oldest)?.json.bytes.count ?? 0
            }
            state.entries[key] = Entry(revision: revision, json: json)
            state.order.append(key)
            state.bytes += size
        }
    }
}
