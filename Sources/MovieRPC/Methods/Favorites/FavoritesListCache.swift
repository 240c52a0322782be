import JSONRPC
import Synchronization

/// `favorites.list` answers already written, per user and variant, each kept with the favorites revision
/// it was built at (see `FavoritesStore.revisedList`). A request reads the current revision (one small
/// query) and serves the kept bytes only when it is the same, so a change by any process, a removal, or a
/// deleted user is never answered from here, and users never share an answer (the key holds the user).
/// A 1,000-favorite list then costs a copy instead of a rebuild.
final class FavoritesListCache: Sendable {
    /// Which answer: the user, the grouping and the image sizes decide the bytes.
    struct Key: Hashable, Sendable {
        var userID: String
        var grouped: Bool
        var posterSize: String
        var backdropSize: String
    }

    private struct Entry: Sendable {
        var revision: Int
        /// The section headers a grouped answer was built with (nil when not grouped): new genre names
        /// make a new answer.
        var genreNames: [Int: String]?
        var json: EncodedJSON
    }

    /// A few answers at most (each ~0.4 MB for 1,000 favorites): one user, a variant or two.
    static let capacity = 4

    private let entries = Mutex<[Key: Entry]>([:])

    /// The kept answer for `key` if it was built at `revision` with the same `genreNames`.
    func answer(for key: Key, revision: Int, genreNames: [Int: String]?) -> EncodedJSON? {
        entries.withLock { entries in
            guard let entry = entries[key], entry.revision == revision, entry.genreNames == genreNames else {
                return nil
            }
            return entry.json
        }
    }

    /// Keeps `json`, built at `revision`, for `key`.
    func keep(_ json: EncodedJSON, for key: Key, revision: Int, genreNames: [Int: String]?) {
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(revision: revision, genreNames: genreNames, json: json)
        }
    }

}
