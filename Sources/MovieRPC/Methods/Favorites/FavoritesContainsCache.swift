import JSONRPC
import Synchronization

/// `favorites.contains` answers already written, each kept with the user, the favorites revision and the
/// exact ids it answered: a list that draws its hearts again asks the same question, and the same revision
/// means the same favorites (see `FavoritesStore.revision()`), so the kept bytes are the answer. Writing a
/// hundred members was most of a call. A change by any process gives a new revision, which is never
/// answered from here; users never share an answer (the entry holds the user).
final class FavoritesContainsCache: Sendable {
    private struct Entry: Sendable {
        var userID: String
        var revision: Int
        var movieIDs: [Int]
        var json: EncodedJSON
    }

    /// A few screens' worth (an answer is at most 500 ids and ~13 KB): compared one by one, the ids of a
    /// hit element by element, which costs less than hashing them would.
    static let capacity = 8

    private let entries = Mutex<[Entry]>([])

    /// The kept answer to `movieIDs` (as asked, in order) for `userID` at `revision`.
    func answer(userID: String, revision: Int, movieIDs: [Int]) -> EncodedJSON? {
        entries.withLock { entries in
            entries.first { $0.revision == revision && $0.userID == userID && $0.movieIDs == movieIDs }?.json
        }
    }

    /// Keeps `json`, the answer to `movieIDs` for `userID` at `revision`. Answers of other revisions are
    /// dropped: the revision is one counter for all users, so they can never be served again.
    func keep(_ json: EncodedJSON, userID: String, revision: Int, movieIDs: [Int]) {
        entries.withLock { entries in
            entries.removeAll { $0.revision != revision || ($0.userID == userID && $0.movieIDs == movieIDs) }
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append(Entry(userID: userID, revision: revision, movieIDs: movieIDs, json: json))
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
