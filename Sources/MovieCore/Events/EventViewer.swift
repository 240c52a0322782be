import SQLiteStore

/// Whose events a request may read and delete. Activity logs are private: a user sees their own events
/// and those recorded while nobody was logged in (which belong to whoever uses the machine), never
/// another user's. Testers who want the whole database start the server with `MOVIE_RPC_EVENTS_SCOPE=all`.
public enum EventViewer: Sendable, Hashable {
    /// Every stored event (`MOVIE_RPC_EVENTS_SCOPE=all`).
    case everyone
    /// The events of this user (nil: nobody is logged in) and those of the anonymous user.
    case user(String?)

    /// Whether an event of `userID` (nil: anonymous) is visible.
    public func sees(_ userID: String?) -> Bool {
        switch self {
        case .everyone: return true
        case .user(let viewer): return userID == nil || userID == viewer
        }
    }

    /// Appends the SQL condition on `events.user_id` that keeps only visible rows.
    func appendCondition(to conditions: inout [String], _ arguments: inout [SQLiteValue]) {
        switch self {
        case .everyone:
            break
        case .user(nil):
            conditions.append("user_id IS NULL")
        case .user(let id?):
            conditions.append("(user_id IS NULL OR user_id = ?)")
            arguments.append(.text(id))
        }
    }

    /// The `event_usage.user_key`s whose counts are visible (`''` is the anonymous user); nil for all.
    var usageKeys: [String]? {
        switch self {
        case .everyone: return nil
        case .user(nil): return [""]
        case .user(let id?): return ["", id]
        }
    }
}
