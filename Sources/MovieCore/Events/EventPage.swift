/// One page of events, newest first, and where the next page starts (nil at the end).
public struct EventPage: Sendable, Equatable {
    public var events: [StoredEvent]
    public var nextCursor: EventCursor?

    public init(events: [StoredEvent], nextCursor: EventCursor?) {
        self.events = events
        self.nextCursor = nextCursor
    }
}
