#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import Synchronization

/// The activity log: events recorded by the server as the user works, and events added by testers, kept
/// in the local database (see `EventLog+Schema.swift` for the tables).
///
/// ## Recording is buffered
/// ``record(_:userID:)`` appends to an in-memory buffer and returns at once. The buffer is written in
/// one transaction per batch: as soon as ``EventLogConfiguration/batchSize`` (256) events wait, at the
/// latest ``EventLogConfiguration/flushInterval`` (200 ms) after an event arrived, before every read, and
/// on ``close()`` (stdin EOF, SIGTERM/SIGINT, LSP `exit`), so a clean exit loses nothing. Recording waits
/// only when ``EventLogConfiguration/maxPending`` (1,024) events are waiting.
/// These flushes wait at most 250 ms for a write lock that another process holds; then the events stay
/// buffered for the next one, and a read meanwhile sees what is stored (``close()`` waits as long as writes do).
///
/// Writes are committed in WAL mode with `synchronous = NORMAL` (see `DatabaseConfiguration`): a commit
/// is a `write()` into the WAL without an fsync, which the kernel keeps when the process is killed, so
/// once committed an event survives `kill -9`; only a power loss could undo the last commits. `FULL`
/// would add an fsync per commit (milliseconds on this machine kind) for that case alone. A `kill -9`
/// therefore loses at most the recorded events not yet committed: those of the last 200 ms plus the
/// duration of one batch write, and never more than 2 × 1,024 events (a full buffer and the batch being
/// written). A storage failure keeps the batch in the buffer for the next flush (the oldest beyond 1,024
/// are dropped, with a warning).
///
/// ## Explicit changes are written through, adds by group commit
/// ``add(name:timestampMillis:params:userID:)`` and ``delete(ids:)`` are committed before they return,
/// together with everything recorded before them. Adds that arrive while a write is under way wait
/// together and are committed in the next transaction, which also takes the recorded buffer: with many
/// concurrent adds a commit (and the trigram index's segment flush and the pruning that come with it)
/// is paid once per group instead of once per event. If a group's transaction fails, its adds are
/// retried one per transaction, so one bad event fails alone.
///
/// ## The search index is kept in bulk
/// Writes do not index their events one batch at a time: the events above the index's watermark are
/// indexed in one statement by the write that leaves ``EventLogConfiguration/maxUnindexedEvents`` of them,
/// or once recording has been quiet for a flush interval (see ``EventQueries/indexSearchTail(atLeast:_:)``).
/// A burst of recording thus pays for the index in a few large batches, which cost half as much per event.
///
/// ## Runs
/// An event recorded again right after itself (same name, params and user; an editor polling one method, a
/// script's loop) is counted in the first one's row instead of stored again, while it comes less than
/// ``EventLogConfiguration/runSpan`` (60 s) after the run's first event: the row's `repeats` and last time
/// grow. Explicit adds are never counted in a run and end the one before them; anything recorded in
/// between ends it too. A run goes on across writes from its stored row (also while the write storing it
/// is under way), and starts a row of its own if that row was deleted meanwhile. Recording 50,000 identical reads thus writes one row, not 50,000 rows
/// into three B-trees (a quarter of a cached read's instructions), and keeps the log's history from being
/// pushed past the cap by copies.
///
/// ## Retention
/// At most ``EventLogConfiguration/maxEvents`` events are kept; each write deletes the oldest (by
/// timestamp, then id) beyond the cap, in the same transaction. The total is kept by a trigger, so a
/// write under the cap costs one extra row read.
public final class EventLog: Sendable {
    public let configuration: EventLogConfiguration
    private let database: Database
    private let searchTuning: EventQueries.SearchTuning
    /// ``EventLogConfiguration/runSpan`` in milliseconds, as event times are kept (converting a `Duration`
    /// took 190 instructions of every recorded event).
    private let runSpanMillis: Int64
    private let state = Mutex(State())

    private struct Pending: Sendable {
        var name: String
        var params: PendingParams
        var userID: String?
        var timestampMillis: Int64
        /// Occurrences of this event in its run so far (see "Runs").
        var repeats: Int64 = 1
        /// When the last of them happened.
        var lastTimestampMillis: Int64
        /// When the run started: a later event joins it only within ``EventLogConfiguration/runSpan`` of this.
        var runStartMillis: Int64
        /// The row the run goes on from, when it began in an earlier write.
        var continues: RunRow?

        init(name: String, params: PendingParams, userID: String?, timestampMillis: Int64) {
            self.name = name
            self.params = params
            self.userID = userID
            self.timestampMillis = timestampMillis
            lastTimestampMillis = timestampMillis
            runStartMillis = timestampMillis
        }

        /// Whether `next` is this event again, early enough to be counted in its run.
        func isRepeated(by next: Pending, within span: Int64) -> Bool {
            next.name == name && next.userID == userID && next.timestampMillis >= runStartMillis
                && next.timestampMillis - runStartMillis < span && next.params == params
        }
    }

    /// Where a run's row is: stored, or being stored by write number `n` (``State/writes``), which tells
    /// the row once it has committed.
    private enum RunRow: Equatable {
        case stored(Int64)
        case beingWritten(UInt64)
    }

    /// The last recorded event written, or being written, while nothing was recorded or added after it: an
    /// identical event recorded next goes on from its row.
    private struct PreviousRun {
        var last: Pending
        var row: RunRow
    }

    /// A recorded event keeps its `AppEvent` until it is encoded by the write that stores it: its params
    /// dictionary (an allocation and a hash per member, 2,400 instructions of a cached `movies.details`)
    /// is then built on the writer's thread instead of on the request's.
    private enum PendingParams: Sendable, Equatable {
        case event(AppEvent)
        case values([String: EventValue])

        var values: [String: EventValue] {
            switch self {
            case .event(let event): event.params
            case .values(let values): values
            }
        }

        static func == (lhs: PendingParams, rhs: PendingParams) -> Bool {
            if case .event(let left) = lhs, case .event(let right) = rhs { return left == right }
            return lhs.values == rhs.values
        }
    }

    /// An add validated and encoded, waiting for the transaction that will store it.
    private struct WaitingAdd {
        var event: EncodedEvent
        /// Resumed with the event's id once committed, or with the error that kept it from being stored.
        var continuation: CheckedContinuation<Int64, any Error>
    }

    private struct State {
        var buffer: [Pending] = []
        /// Adds waiting for the next write, in arrival order.
        var adds: [WaitingAdd] = []
        /// A write that will take `adds` is queued and has not started yet.
        var addWriteQueued = false
        /// Transactions that stored events (tests count them to see adds grouped).
        var committedWrites = 0
        /// The flush due `flushInterval` after the oldest waiting event.
        var timer: Task<Void, Never>?
        /// A size-triggered flush is on its way.
        var flushRequested = false
        var closed = false
        /// Users whose accounts this process deleted: events still recorded for them are dropped.
        var deletedUsers: Set<String> = []
        /// The last write in the queue; the next one starts after it.
        var tail: Task<Void, Never>?
        /// Jobs queued and not finished (a write may have taken the buffer and not committed yet).
        var unfinishedJobs = 0
        /// Events recorded or added so far: the quiet-time indexing sees recording go on when it moves.
        var arrivals = 0
        /// Waits for a quiet spell to index the search tail; set while a write left one.
        var quietIndexing: Task<Void, Never>?
        /// Whether the buffer's last event may still count a repeat: an add after it ends its run.
        var lastBufferedJoinable = false
        /// What an identical event recorded next, with the buffer empty, goes on from (see ``PreviousRun``);
        /// cleared by anything recorded or added.
        var previousRun: PreviousRun?
        /// Writes that took the buffer so far: numbers them for ``RunRow/beingWritten(_:)``.
        var writes: UInt64 = 0
    }

    public convenience init(database: Database, configuration: EventLogConfiguration = EventLogConfiguration()) {
        self.init(database: database, configuration: configuration, searchTuning: EventQueries.SearchTuning())
    }

    init(database: Database, configuration: EventLogConfiguration, searchTuning: EventQueries.SearchTuning) {
        self.database = database
        self.configuration = configuration
        self.searchTuning = searchTuning
        runSpanMillis = Self.millis(configuration.runSpan)
    }

    // MARK: Recording

    /// Records `event` for `userID` (nil: nobody logged in) at the current time. Buffered; see above.
    /// On every request's path, so it runs on its caller's executor rather than hopping to the global one.
    @inlinable
    public nonisolated(nonsending) func record(_ event: AppEvent, userID: String?) async {
        if !recordWithoutWaiting(event, userID: userID) { await writeClosingBuffer() }
    }

    /// Records `event` as ``record(_:userID:)`` does, up to its one wait, without a suspension point: true
    /// when that is all; false when the log is closing, and the caller must then `await writeClosingBuffer()`
    /// (which writes the event, buffered) before it goes on. For the path every recorded request takes, where
    /// each await was an async frame and a hop back.
    public func recordWithoutWaiting(_ event: AppEvent, userID: String?) -> Bool {
        recordWithoutWaiting(Pending(name: event.name, params: .event(event), userID: userID, timestampMillis: EventTime.now()))
    }

    /// Writes what a recording buffered while the log was closing (see ``recordWithoutWaiting(_:userID:)``).
    public nonisolated(nonsending) func writeClosingBuffer() async {
        await flushQuietly(waitingForLock: false)
    }

    nonisolated(nonsending) func record(name: String, params: [String: EventValue], userID: String?, timestampMillis: Int64) async {
        await record(Pending(name: name, params: .values(params), userID: userID, timestampMillis: timestampMillis))
    }

    private nonisolated(nonsending) func record(_ pending: Pending) async {
        if !recordWithoutWaiting(pending) { await writeClosingBuffer() }
    }

    /// Buffers `pending` and starts the write it makes due; false when the log is closing and the caller must
    /// wait for that write (`writeClosingBuffer`).
    private func recordWithoutWaiting(_ pending: Pending) -> Bool {
        switch buffer(pending) {
        case .none: return true
        case .flushInBackground:
            _ = enqueue { try await self.writePending(waitingForLock: false) }
            return true
        case .flushAndWait: return false
        }
    }

    private enum BufferAction { case none, flushInBackground, flushAndWait }

    /// Adds `pending` to the buffer (or counts it in the run it repeats) and says what the write must do.
    /// Synchronous and not inlined: its lock's closure holds the event by address, and inside the async
    /// `record` the compiler kept every such local in the task's frame, a kilobyte of the request's
    /// task-local memory (its allocator then took one more slab from malloc for every recorded request).
    @inline(never)
    private func buffer(_ pending: Pending) -> BufferAction {
        let userID = pending.userID
        let span = runSpanMillis
        return state.withLock { state -> BufferAction in
            if let userID, state.deletedUsers.contains(userID) { return .none }
            state.arrivals &+= 1
            if let last = state.buffer.indices.last, state.lastBufferedJoinable,
                state.buffer[last].isRepeated(by: pending, within: span)
            {
                state.buffer[last].repeats += 1
                state.buffer[last].lastTimestampMillis = max(
                    state.buffer[last].lastTimestampMillis, pending.timestampMillis)
                return state.closed ? .flushAndWait : .none
            }
            // Copied only here, where it is stored: an event that repeats the last one (the common case, a
            // run) only counts in it (copying and destroying it cost 270 instructions a request).
            var stored = pending
            if state.buffer.isEmpty, let run = state.previousRun, run.last.isRepeated(by: pending, within: span) {
                stored.runStartMillis = run.last.runStartMillis
                stored.continues = run.row
            }
            state.previousRun = nil
            state.buffer.append(stored)
            state.lastBufferedJoinable = true
            if state.closed || state.buffer.count >= configuration.maxPending {
                return .flushAndWait
            }
            if state.buffer.count >= configuration.batchSize, !state.flushRequested {
                state.flushRequested = true
                return .flushInBackground
            }
            if state.timer == nil {
                state.timer = makeTimer()
            }
            return .none
        }
    }

    private func makeTimer() -> Task<Void, Never> {
        let interval = configuration.flushInterval
        return Task { [weak self] in
            do {
                try await Task.sleep(for: interval)
            } catch {
                return  // Cancelled by close(), which flushes itself.
            }
            guard let self else { return }
            self.state.withLock { $0.timer = nil }
            await self.flushQuietly(waitingForLock: false)
        }
    }

    /// Writes every event recorded so far; returns once they are committed.
    public func flush() async throws {
        _ = try await serialized { try await self.writePending() }
    }

    /// Flushes, then records later events write-through. Safe to call more than once.
    public func close() async {
        let (timer, quietIndexing) = state.withLock { state -> (Task<Void, Never>?, Task<Void, Never>?) in
            state.closed = true
            defer {
                state.timer = nil
                state.quietIndexing = nil
            }
            return (state.timer, state.quietIndexing)
        }
        timer?.cancel()
        // The tail stays for the next process: searches are exact without the index, and exit stays quick.
        quietIndexing?.cancel()
        await flushQuietly(waitingForLock: true)
    }

    /// Flushes, for callers that go on either way: a failure was already logged by the write, and the
    /// events stay buffered for the next flush. Without `waitingForLock`, a write lock held by another
    /// process for longer than ``flushLockTimeout`` makes the flush fail (the events stay buffered), so that
    /// reads and recording do not wait for that process: a read then sees what is stored.
    private func flushQuietly(waitingForLock: Bool) async {
        // Nothing recorded, added or being written: there is nothing a read could miss, and queueing an
        // empty flush costs two tasks and their hops on every read.
        guard hasUnwrittenWork else { return }
        do {
            _ = try await serialized { try await self.writePending(waitingForLock: waitingForLock) }
        } catch {
            // Logged by writePending; readers go on with what is stored.
        }
    }

    // MARK: Explicit changes

    /// Validates and stores one event, committed before returning (with everything recorded before it, and
    /// with the adds waiting at the same time: see "group commit" above).
    ///
    /// - Throws: `MovieError.validationFailed` naming each bad field (see ``EventValidation``);
    ///   `MovieError.storage`.
    public func add(
        name: String, timestampMillis: Int64, params: [String: EventValue], userID: String?
    ) async throws -> StoredEvent {
        let problems = EventValidation.problems(name: name, params: params)
        guard problems.isEmpty else { throw MovieError.validationFailed(problems) }
        // Encoded here, on the caller's task, so that the serial write does only SQLite work.
        let pending = Pending(name: name, params: .values(params), userID: userID, timestampMillis: timestampMillis)
        guard let encoded = encode(pending) else {
            throw MovieError.validationFailed([FieldProblem(field: "params", problem: "cannot be stored")])
        }
        if let problem = EventValidation.sizeProblem(byteCount: encoded.params.utf8.count) {
            throw MovieError.validationFailed([problem])
        }
        let id = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int64, any Error>) in
            let startsWrite = state.withLock { state -> Bool in
                state.adds.append(WaitingAdd(event: encoded, continuation: continuation))
                state.arrivals &+= 1
                // Stored after every event recorded so far: none of them may count a later repeat.
                state.lastBufferedJoinable = false
                state.previousRun = nil
                guard !state.addWriteQueued else { return false }
                state.addWriteQueued = true
                return true
            }
            // One queued write takes every add that arrives before it starts.
            if startsWrite {
                _ = enqueue { try await self.writePending() }
            }
        }
        return StoredEvent(id: id, name: name, timestampMillis: timestampMillis, userID: userID, params: params)
    }

    /// Deletes events by id, committed before returning. Unknown ids, and ids of events `viewer` may not
    /// see, are reported as not found, not an error; a repeated id counts once.
    public func delete(ids: [Int64], viewer: EventViewer = .everyone) async throws -> EventDeletion {
        var seen = Set<Int64>()
        let unique = ids.filter { seen.insert($0).inserted }
        return try await serialized {
            // Recorded events first, so that an id just handed out can be deleted.
            try await self.writePending()
            return try await StorageErrors.mapping {
                try await self.database.write { db in try EventQueries.delete(unique, viewer: viewer, db) }
            }
        }
    }

    /// Deletes every event of `userID`, whose account is being deleted, committed before returning;
    /// returns how many were stored. Events of this user still buffered are written first (and so deleted
    /// too), and any recorded for them later in this process are dropped.
    public func deleteEvents(ofUser userID: String) async throws -> Int {
        state.withLock { _ = $0.deletedUsers.insert(userID) }
        return try await serialized {
            try await self.writePending()
            return try await StorageErrors.mapping {
                try await self.database.write { db in try EventQueries.deleteAll(ofUser: userID, db) }
            }
        }
    }

    // MARK: Reading (each read flushes first, so it sees everything recorded before it)

    /// What ``revisedList(_:view:limit:after:kept:)`` found.
    public enum RevisedEventPage<Kept: Sendable>: Sendable {
        /// The caller's answer, kept for this viewer at the current revision.
        case kept(Kept)
        /// The page, for the view's viewer, at least as new as its revision.
        case listed(EventPage, View)
    }

    /// One newest-first page of events passing `filter` that `viewer` may see, strictly after `cursor`:
    /// at most `limit` events and about ``EventLogConfiguration/maxPageBytes`` (a page of large events is
    /// shorter, with a cursor to the rest).
    public func list(
        _ filter: EventFilter = EventFilter(), viewer: EventViewer = .everyone, limit: Int,
        after cursor: EventCursor? = nil
    ) async throws -> EventPage {
        await flushQuietly(waitingForLock: false)
        let limit = max(1, limit)
        let budget = configuration.maxPageBytes
        return try await read { db in
            try EventQueries.list(filter, viewer: viewer, limit: limit, budget: budget, after: cursor, db)
        }
    }

    /// One newest-first page of events that `viewer` may see whose name or a parameter value contains
    /// `query`, ignoring case (see ``EventSearchText``), strictly after `cursor`; paged as ``list``.
    public func search(
        _ query: String, viewer: EventViewer = .everyone, limit: Int, after cursor: EventCursor? = nil
    ) async throws -> EventPage {
        await flushQuietly(waitingForLock: false)
        let limit = max(1, limit)
        let tuning = searchTuning
        let budget = configuration.maxPageBytes
        return try await read { db in
            try EventQueries.search(
                query, viewer: viewer, limit: limit, budget: budget, after: cursor, tuning: tuning, db)
        }
    }

    /// Whether a query can be searched (see ``EventSearchText/isSearchable(_:)``).
    public static func isSearchable(_ query: String) -> Bool {
        EventSearchText.isSearchable(query)
    }

    /// The event with this id, if `viewer` may see it.
    ///
    /// - Throws: `MovieError.notFound("event <id>")`, also for another user's event.
    public func event(id: Int64, viewer: EventViewer = .everyone) async throws -> StoredEvent {
        await flushQuietly(waitingForLock: false)
        guard let event = try await read({ db in try EventQueries.event(id: id, viewer: viewer, db) }) else {
            throw MovieError.notFound("event \(id)")
        }
        return event
    }

    /// Counts per event name of the events `viewer` may see: of every one, or of those at or after
    /// `sinceMillis`.
    public func stats(sinceMillis: Int64? = nil, viewer: EventViewer = .everyone) async throws -> EventStats {
        await flushQuietly(waitingForLock: false)
        return try await read { db in try EventQueries.stats(sinceMillis: sinceMillis, viewer: viewer, db) }
    }

    /// The hints for `userID` (nil: the anonymous user), from ``HintRules``.
    public func hints(userID: String?) async throws -> [Hint] {
        await flushQuietly(waitingForLock: false)
        let used = try await read { db in try EventQueries.usedNames(userID: userID, db) }
        return HintRules.hints(usedEventNames: used)
    }

    /// Who reads and what they would see: the viewer and the log's ``EventRevision``, read together.
    public struct View: Sendable, Hashable {
        public var viewer: EventViewer
        public var revision: EventRevision
    }

    /// The viewer (read by `viewer`) and the revision, in one read; without flushing (see ``revisedList``).
    func view(_ viewer: @Sendable (SQLiteConnection) throws -> EventViewer) async throws -> View {
        try await read { db in View(viewer: try viewer(db), revision: try EventQueries.revision(db)) }
    }

    /// ``list(_:viewer:limit:after:)`` for a caller that keeps pages: recorded events are flushed first, as
    /// for `list`, so that a kept answer never hides one; then `view` gives the viewer and the revision
    /// (read after the flush), and `kept` is asked for an answer kept for them. Only without one is the
    /// page read, after the revision: a change committed in between makes the page newer than its
    /// revision, never older, so at worst it is built again on the next request.
    func revisedList<Kept: Sendable>(
        _ filter: EventFilter, view: @Sendable () async throws -> View, limit: Int, after cursor: EventCursor?,
        kept: (View) -> Kept?
    ) async throws -> RevisedEventPage<Kept> {
        await flushQuietly(waitingForLock: false)
        let view = try await view()
        if let answer = kept(view) { return .kept(answer) }
        let limit = max(1, limit)
        let budget = configuration.maxPageBytes
        let page = try await read { db in
            try EventQueries.list(filter, viewer: view.viewer, limit: limit, budget: budget, after: cursor, db)
        }
        return .listed(page, view)
    }

    /// The log's current revision, without flushing.
    func revision() async throws -> EventRevision {
        try await read { db in try EventQueries.revision(db) }
    }

    // MARK: Internals

    /// Whether anything recorded or added is not committed yet, or a write is queued or under way.
    private var hasUnwrittenWork: Bool {
        state.withLock { !$0.buffer.isEmpty || !$0.adds.isEmpty || $0.unfinishedJobs > 0 }
    }

    /// How many recorded events wait in the buffer.
    var pendingCount: Int {
        state.withLock { $0.buffer.count }
    }

    /// How many adds wait for a write.
    var waitingAddCount: Int {
        state.withLock { $0.adds.count }
    }

    /// How many transactions have stored events.
    var committedWriteCount: Int {
        state.withLock { $0.committedWrites }
    }

    /// Queues `job` behind every write queued so far; later writes wait for it (tests hold the queue).
    func queueWrite(_ job: @escaping @Sendable () async -> Void) {
        _ = enqueue { await job() }
    }

    /// The pending interval flush, if one is scheduled (tests await it).
    var scheduledFlush: Task<Void, Never>? {
        state.withLock { $0.timer }
    }

    /// The wait for a quiet spell that will index the search tail, if one is on (tests await it).
    var scheduledIndexing: Task<Void, Never>? {
        state.withLock { $0.quietIndexing }
    }

    /// Waits until every write queued so far has finished.
    func waitForQueuedWrites() async {
        let tail = state.withLock { $0.tail }
        await tail?.value
    }

    /// The stored total, without flushing.
    func storedCount() async throws -> Int {
        try await read { db in try db.scalarInt("SELECT total FROM event_totals WHERE id = 1") ?? 0 }
    }

    private func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await StorageErrors.mapping { try await database.read(body) }
    }

    /// Runs `job` once every job queued before it has finished: writes commit in the order they were
    /// asked for, and a flush returns only once every earlier write has been committed.
    private func serialized<T: Sendable>(_ job: @escaping @Sendable () async throws -> T) async throws -> T {
        try await enqueue(job).value
    }

    /// Queues `job` behind every job queued before it, without waiting for it.
    private func enqueue<T: Sendable>(_ job: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        state.withLock { state -> Task<T, any Error> in
            let previous = state.tail
            state.unfinishedJobs += 1
            let task = Task {
                defer { self.state.withLock { $0.unfinishedJobs -= 1 } }
                await previous?.value
                return try await job()
            }
            state.tail = Task { _ = await task.result }
            return task
        }
    }

    /// Takes the whole buffer and every waiting add and writes them (the buffer first) in one transaction,
    /// pruning beyond the cap, then answers each add. Every add taken is answered, whatever happens.
    ///
    /// If the transaction fails, the buffer's events are put back, and the adds are retried one per
    /// transaction, so that an add that cannot be stored fails alone.
    ///
    /// - Throws: the storage error that kept the buffer's events from being written (the adds have their
    ///   own answers).
    private func writePending(waitingForLock: Bool = true) async throws {
        let (batch, adds, write) = state.withLock { state -> ([Pending], [WaitingAdd], UInt64) in
            state.flushRequested = false
            state.addWriteQueued = false
            state.writes &+= 1
            defer {
                state.buffer = []
                state.adds = []
                state.lastBufferedJoinable = false
            }
            if state.adds.isEmpty, let last = state.buffer.last {
                state.previousRun = PreviousRun(last: last, row: .beingWritten(state.writes))
            }
            return (state.buffer, state.adds, state.writes)
        }
        defer {
            // Whatever happened, this write is no longer under way.
            state.withLock { state in
                if state.previousRun?.row == .beingWritten(write) { state.previousRun = nil }
            }
        }
        let recorded = batch.compactMap { pending -> EncodedEvent? in
            guard let event = encode(pending) else {
                StoreLog.warning("A recorded \(pending.name) event has params that cannot be stored; dropped")
                return nil
            }
            return event
        }
        guard !recorded.isEmpty || !adds.isEmpty else { return }
        let ids: [Int64]
        do {
            // An add waits for the lock: its caller asked for a committed write.
            ids = try await insert(recorded + adds.map(\.event), waitingForLock: waitingForLock || !adds.isEmpty)
        } catch {
            let mapped = StorageErrors.map(error)
            if !batch.isEmpty {
                StoreLog.warning("\(batch.count) recorded events could not be saved yet; they stay buffered")
            }
            requeue(batch)
            if adds.count == 1 && recorded.isEmpty {
                adds[0].continuation.resume(throwing: mapped)
            } else {
                for add in adds {
                    await writeAlone(add)
                }
            }
            if !batch.isEmpty {
                throw mapped
            }
            return
        }
        // `insert` gives one id per row; checked anyway, because an add left unanswered would hang its caller.
        let addIDs = Array(ids.suffix(adds.count))
        guard addIDs.count == adds.count else {
            StoreLog.warning("A group commit returned \(ids.count) ids for \(recorded.count + adds.count) events")
            adds.forEach { $0.continuation.resume(throwing: MovieError.storage(.other)) }
            return
        }
        for (add, id) in zip(adds, addIDs) {
            add.continuation.resume(returning: id)
        }
        // The row of this write's last event is known now: for an event that went on from it while this
        // write was under way (the first one buffered since), and for the next one, if nothing was
        // recorded or added since.
        if adds.isEmpty, recorded.count == batch.count, let rowID = ids.last {
            state.withLock { state in
                if let first = state.buffer.indices.first, state.buffer[first].continues == .beingWritten(write) {
                    state.buffer[first].continues = .stored(rowID)
                }
                if state.previousRun?.row == .beingWritten(write) { state.previousRun?.row = .stored(rowID) }
            }
        }
    }

    /// Stores one add in its own transaction and answers it.
    private func writeAlone(_ add: WaitingAdd) async {
        do {
            let ids = try await insert([add.event])
            guard let id = ids.first else { throw MovieError.storage(.other) }
            add.continuation.resume(returning: id)
        } catch {
            add.continuation.resume(throwing: StorageErrors.map(error))
        }
    }

    /// Inserts `rows` in order and prunes beyond the cap, in one transaction; returns the rows' ids.
    /// How long a flush that does not wait for the lock still waits: another process's ordinary transaction
    /// takes milliseconds, and a read that flushes first may wait this long when the lock is held long.
    static let flushLockTimeout = Duration.milliseconds(250)

    private func insert(_ rows: [EncodedEvent], waitingForLock: Bool = true) async throws -> [Int64] {
        let maxEvents = configuration.maxEvents
        let maxUnindexed = configuration.maxUnindexedEvents
        let body: @Sendable (SQLiteConnection) throws -> (ids: [Int64], unindexed: Int) = { db in
            let ids = try EventQueries.insert(rows, db)
            _ = try EventQueries.prune(maxEvents: maxEvents, db)
            // After pruning, so that events pruned at once are never indexed.
            let tail = try EventQueries.indexSearchTail(atLeast: maxUnindexed, db)
            return (ids, tail.left)
        }
        let written = waitingForLock
            ? try await database.write(body) : try await database.write(lockTimeout: Self.flushLockTimeout, body)
        state.withLock { $0.committedWrites += 1 }
        if written.unindexed > 0 {
            indexWhenQuiet()
        }
        return written.ids
    }

    /// Indexes the search tail once nothing was recorded or added for a flush interval, unless a wait for
    /// that is already on; a later write that leaves a tail starts another.
    private func indexWhenQuiet() {
        let interval = configuration.flushInterval
        state.withLock { state in
            guard state.quietIndexing == nil, !state.closed else { return }
            state.quietIndexing = Task { [weak self] in
                var seen = self?.state.withLock { $0.arrivals }
                while true {
                    do {
                        try await Task.sleep(for: interval)
                    } catch {
                        return  // Cancelled by close().
                    }
                    guard let self else { return }
                    let now = self.state.withLock { state -> Int? in
                        let busy = !state.buffer.isEmpty || !state.adds.isEmpty || state.unfinishedJobs > 0
                        return busy ? nil : state.arrivals
                    }
                    if let now, now == seen { break }
                    seen = now
                }
                await self?.indexSearchTail()
            }
        }
    }

    /// Indexes every event above the search watermark, behind the writes queued so far.
    private func indexSearchTail() async {
        do {
            _ = try await serialized {
                // Cleared once queued, so that a write queued after this job starts the next wait.
                self.state.withLock { $0.quietIndexing = nil }
                return try await self.database.write(lockTimeout: Self.flushLockTimeout) { db in
                    try EventQueries.indexSearchTail(atLeast: 1, db)
                }
            }
        } catch {
            // Most likely another process's lock. The tail stays searchable without the index, and the next
            // write that leaves one tries again.
        }
    }

    private func requeue(_ batch: [Pending]) {
        guard !batch.isEmpty else { return }
        let dropped = state.withLock { state -> Int in
            state.buffer.insert(contentsOf: batch, at: 0)
            let excess = state.buffer.count - configuration.maxPending
            guard excess > 0 else { return 0 }
            state.buffer.removeFirst(excess)
            return excess
        }
        if dropped > 0 {
            StoreLog.warning("\(dropped) recorded events were dropped: the database cannot be written")
        }
    }

    private func encode(_ pending: Pending) -> EncodedEvent? {
        let values = pending.params.values
        guard let params = StoredEvent.canonicalJSON(values) else { return nil }
        // A run whose row's write failed or dropped it starts a row of its own.
        let continuesRow: Int64? = if case .stored(let row)? = pending.continues { row } else { nil }
        return EncodedEvent(
            name: pending.name, timestampMillis: pending.timestampMillis, userID: pending.userID,
            params: params,
            search: EventSearchText.make(name: pending.name, params: values),
            repeats: pending.repeats,
            lastTimestampMillis: pending.repeats > 1 || pending.continues != nil ? pending.lastTimestampMillis : nil,
            continuesRow: continuesRow)
    }

    private static func millis(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
    }
}
