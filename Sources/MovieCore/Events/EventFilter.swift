/// Which events `EventLog.list` returns. Every condition given must hold.
public struct EventFilter: Sendable, Hashable {
    /// Whose events.
    public enum User: Sendable, Hashable {
        /// Everybody's, and the anonymous user's.
        case any
        /// Only those recorded while nobody was logged in.
        case anonymous
        /// Only this user's.
        case id(String)
    }

    /// Exactly this event name (case-sensitive).
    public var name: String?
    public var user: User
    /// Events at or after this millisecond.
    public var sinceMillis: Int64?
    /// Events strictly before this millisecond.
    public var untilMillis: Int64?

    public init(name: String? = nil, user: User = .any, sinceMillis: Int64? = nil, untilMillis: Int64? = nil) {
        self.name = name
        self.user = user
        self.sinceMillis = sinceMillis
        self.untilMillis = untilMillis
    }
}
