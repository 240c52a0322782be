/// How the event log buffers and retains events.
public struct EventLogConfiguration: Sendable, Equatable {
    /// The most events kept; the oldest (by timestamp, then id) beyond it are deleted. At least 1.
    public var maxEvents: Int
    /// A flush starts as soon as this many recorded events are waiting.
    public var batchSize: Int
    /// A recorded event waits at most about this long before its flush starts.
    public var flushInterval: Duration
    /// Recording waits for a flush when this many events are waiting (a bound on memory, and on what a
    /// crash can lose).
    public var maxPending: Int
    /// About the most bytes of events one page of `events.list` or `events.search` carries; a page of
    /// large events is shorter (at least one event) and its cursor leads to the rest.
    public var maxPageBytes: Int
    /// Events are added to the search index in bulk: by the write that leaves this many or more above the
    /// index's watermark, and by the first write after recording has been quiet for ``flushInterval``.
    /// Searches check the events above it one by one, so it bounds that work.
    public var maxUnindexedEvents: Int
    /// A recorded event identical to the one recorded just before it (same name, params and user) is
    /// counted in that one's row while it comes less than this long after the run's first event; zero
    /// stores every event as a row of its own.
    public var runSpan: Duration

    public init(
        maxEvents: Int = 1_000_000, batchSize: Int = 256, flushInterval: Duration = .milliseconds(200),
        maxPending: Int = 1024, maxPageBytes: Int = 1 << 20, maxUnindexedEvents: Int = 4096,
        runSpan: Duration = .seconds(60)
    ) {
        self.maxEvents = max(1, maxEvents)
        self.batchSize = max(1, batchSize)
        self.flushInterval = flushInterval
        self.maxPending = max(self.batchSize, maxPending)
        self.maxPageBytes = max(1, maxPageBytes)
        self.maxUnindexedEvents = max(1, maxUnindexedEvents)
        self.runSpan = max(.zero, runSpan)
    }
}
