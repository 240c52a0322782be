#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
    /// Set by the first change the engine has not been told of yet: a burst of changes tells it once.
    private let unannounced = Mutex(false)
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

    /// After the transaction committed: wakes the sync engine, unless it was woken since its last cycle
    /// began (it will see this change too).
    func committed() {
        let first = unannounced.withLock { waiting in
            defer { waiting = true }
            return !waiting
        }
        if first { onChange.withLock { $0 }?() }
    }

    /// The engine is about to read the outbox: the next change must wake it again.
    func cycleStarting() {
        unannounced.withLock { $0 = false }
    }

    private func record(_ db: SQLiteConnection, userID: String, kind: SyncItemKind, movieID: Int, deleted: Bool)
        throws
    {
        let clock = Int64((now().timeIntervalSince1970 * 1000).rounded(.down))
        let changeID = try Self.newChangeID()
        // A new change is always later than the one it replaces, even if this device's clock went back.
        try db.run(
            """
            INSERT INTO sync_versions(user_id, kind, movie_id, changed_at, change_id, deleted)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(user_id, kind, movie_id) DO UPDATE SET
                changed_at = max(excluded.changed_at, sync_versions.changed_at + 1),
                change_id = excluded.change_id, deleted = excluded.deleted
            """,
            [.text(userID), .text(kind.rawValue), .integer(Int64(movieID)), .integer(clock), .text(changeID),
             .integer(deleted ? 1 : 0)])
        try SyncStore.queue(db, userID: userID, kind: kind, movieID: movieID, changeID: changeID, at: clock)
    }

    /// 64 random bits in hex.
    static func newChangeID() throws -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(16)
        for byte in try LibCrypto.randomBytes(8) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// What a synced item is.
enum SyncItemKind: String, Sendable {
    /// `users/{uid}/favorites/{movieId}`.
    case favorite
    /// `users/{uid}`: the profile fields Firebase Auth does not keep.
    case profile
}
