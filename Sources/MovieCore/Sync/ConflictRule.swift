/// One change to a synced item (a favorite, or the profile): when the user made it, by the clock of the
/// device they made it on, whether it removed the item, and a random id that names the change.
public struct SyncVersion: Sendable, Equatable {
    /// Milliseconds since 1970, the device's clock when the user made the change.
    public var changedAt: Int64
    /// A removal (a tombstone, for favorites).
    public var deleted: Bool
    /// Random, made with the change; the same change seen twice (our own push pulled back) has the same id.
    public var changeID: String

    public init(changedAt: Int64, deleted: Bool, changeID: String) {
        self.changedAt = changedAt
        self.deleted = deleted
        self.changeID = changeID
    }
}

/// Which of two changes to the same item wins, everywhere alike (every device decides the same way, so
/// they converge whatever order they see the changes in):
///
/// 1. the one the user made later (`changedAt`) wins: an add made offline at 10:00 on one device loses
///    to a removal made at 10:05 on another, and the reverse;
/// 2. at the same millisecond, an add wins over a removal (keeping a favorite is the cheaper mistake);
/// 3. then the greater `changeID` (random, compared as bytes) wins.
///
/// A change is never lost without a later change to the same item superseding it.
public enum ConflictRule {
    /// Whether `candidate` supersedes `current` (false for the same change).
    public static func supersedes(_ candidate: SyncVersion, _ current: SyncVersion?) -> Bool {
        guard let current else { return true }
        if candidate.changedAt != current.changedAt { return candidate.changedAt > current.changedAt }
        if candidate.deleted != current.deleted { return !candidate.deleted }
        return current.changeID.utf8.lexicographicallyPrecedes(candidate.changeID.utf8)
    }
}
