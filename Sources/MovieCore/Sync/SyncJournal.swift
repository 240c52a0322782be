import Foundation
import SQLiteStore
import Synchronization

/// Records each local change to a synced item in the outbox, inside the transaction that makes the change
/// (``FavoritesStore`` and ``AccountStore`` call it from their write closures), so a change is never
/// committed without its outbox entry, whatever happens next (`kill -9`, power loss). Then it tells the
/// sync engine, which pushes soon after (debounced).
///
/// Tables (``SyncStore/migrations``): `sync_versions` holds the latest known change per item and user,
/// made here or pulled (tombstones included); `sync_outbox` one pending entry per item and user, naming
/// the change to push (a later change to the same item replaces it: the latest state is what is pushed).
public final class SyncJournal: Sendable {
    private let onChange = Mutex<(@Sendable () -> Void)?>(nil)
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    /// Called after each recorded change has been committed.
    func setChangeHandler(_ handler: (@Sendable () -> Void)?) {
        onChange.withLock { $0 = handler }
    }

    /// A favorite was added (or removed, `deleted`) for `userID`, in the transaction `db` is in.
    func favoriteChanged(_ db: SQLiteConnection, userID: String, movieID: Int, deleted: Bool) throws {
        try record(db, userID: userID, kind: .favorite, movieID: movieID, deleted: deleted)
    }

    /// The user's synced profile fields (bio, phone, birth date) were written, in `db`'s transaction.
    func profileChanged(_ db: SQLiteConnection, userID: String) throws {
        try record(db, userID: userID, kind: .profile, movieID: 0, deleted: false)
    }

    /// After the transaction committed: wakes the sync engine.
    func committed() {
        onChange.withLock { $0 }?()
    }

    private func record(_ db: SQLiteConnection, userID: String, kind: SyncItemKind, movieID: Int, deleted: Bool)
        throws
    {
        // A new change is always later than the one it replaces, even if this device's clock went back.
        let previous = try db.scalarInt(
            "SELECT changed_at FROM sync_versions WHERE user_id = ? AND kind = ? AND movie_id = ?",
            [.text(userID), .text(kind.rawValue), .integer(Int64(movieID))])
        let clock = Int64((now().timeIntervalSince1970 * 1000).rounded(.down))
        let changedAt = max(clock, Int64(previous ?? 0) + 1)
        let version = SyncVersion(changedAt: changedAt, deleted: deleted, changeID: try Self.newChangeID())
        try SyncStore.setVersion(db, userID: userID, kind: kind, movieID: movieID, version)
        try SyncStore.queue(db, userID: userID, kind: kind, movieID: movieID, changeID: version.changeID, at: clock)
    }

    /// 64 random bits in hex.
    static func newChangeID() throws -> String {
        try LibCrypto.randomBytes(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}

/// What a synced item is.
enum SyncItemKind: String, Sendable {
    /// `users/{uid}/favorites/{movieId}`.
    case favorite
    /// `users/{uid}`: the profile fields Firebase Auth does not keep.
    case profile
}
