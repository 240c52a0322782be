/// One event as stored in the activity log.
public struct StoredEvent: Sendable, Equatable {
    /// Assigned when stored; never reused, even after the event is deleted or pruned.
    public var id: Int64
    public var name: String
    /// Milliseconds since 1970 UTC (see ``EventTime``).
    public var timestampMillis: Int64
    /// The user logged in when the event happened; nil for the anonymous user.
    public var userID: String?
    public var params: [String: EventValue]

    public init(id: Int64, name: String, timestampMillis: Int64, userID: String?, params: [String: EventValue]) {
        self.id = id
        self.name = name
        self.timestampMillis = timestampMillis
        self.userID = userID
        self.params = params
    }

    /// The position of this event in newest-first order, for the next page.
    public var cursor: EventCursor {
        EventCursor(timestampMillis: timestampMillis, id: id)
    }
}
