#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization

/// Turns each incoming frame into handler calls and replies.
///
/// `receive` runs on the reading thread: it classifies the message and starts one task per request, so a
/// slow request never holds up the others, and replies may leave out of order. A request that gets a slot
/// when it arrives starts on the reading thread itself and leaves it at its first suspension: an answer from
/// memory then costs no wake-up of another thread, and a pipelined run of such requests is answered by the
/// thread that read them, their replies written together (`OutputChannel.holdWrites()`). Requests that wait
/// for a slot, and large ones, start on the global executor. Every request gets exactly one reply;
/// notifications get none.
public final class Dispatcher: Sendable {
    /// Maps any error a handler throws to what the client sees. The application's one mapping place.
    public typealias ErrorMapper = @Sendable (any Error) -> ResponseError
    public typealias Reply = @Sendable ([UInt8]) -> Void

    public struct Limits: Sendable {
        public var maxMessageSize: Int
        public var maxDepth: Int
        /// Requests handled at once; more wait in arrival order.
        public var maxConcurrentRequests: Int
        /// Waiting requests at which the connection stops reading input until half of them have started:
        /// a client that pipelines faster than we answer is held back by the pipe, so memory stays bounded.
        /// Large, so that control messages behind a backlog waiting on a hanging upstream are still read.
        public var maxWaitingRequests: Int
        /// Bytes of requests read and not yet answered (each counted with `requestOverhead` more) at which
        /// the connection stops reading until half of them are answered. Reaching it stops the reading
        /// after the message that reached it, so one message of up to `maxMessageSize` always gets in.
        /// Default: ``defaultQueuedBytes``.
        public var maxQueuedInputBytes: Int
        /// Bytes of replies waiting to be written (their buffers' capacity) at which no further request
        /// starts: a client that does not read holds the work back, and through `maxQueuedInputBytes` the
        /// input. A single reply larger than it still goes out whole. Default: ``defaultQueuedOutputBytes``.
        public var maxQueuedOutputBytes: Int
        /// Bytes read and not yet framed at which the connection stops reading. While the requests already
        /// taken fill `maxQueuedInputBytes` because their replies have no room (the client does not read),
        /// the connection reads on into its framing buffer, where a waiting request costs only its bytes:
        /// so a client that writes all its requests before it reads a reply is served until its requests,
        /// not their replies, exceed the budgets. Default: ``defaultBufferedInputBytes``.
        public var maxBufferedInputBytes: Int
        /// The largest reply one batch builds; entries past it are answered with a `replyTooLarge` error.
        /// Default: the message limit.
        public var maxBatchReplySize: Int
        public init(
            maxMessageSize: Int = 16 * 1024 * 1024, maxDepth: Int = 64, maxConcurrentRequests: Int = 64,
            maxWaitingRequests: Int = 16 * 1024, maxQueuedInputBytes: Int? = nil, maxQueuedOutputBytes: Int? = nil,
            maxBufferedInputBytes: Int? = nil, maxBatchReplySize: Int? = nil
        ) {
            self.maxMessageSize = maxMessageSize
            self.maxDepth = maxDepth
            self.maxConcurrentRequests = max(1, maxConcurrentRequests)
            self.maxWaitingRequests = max(1, maxWaitingRequests)
            self.maxQueuedInputBytes = max(1, maxQueuedInputBytes ?? Self.defaultQueuedBytes)
            self.maxQueuedOutputBytes = max(1, maxQueuedOutputBytes ?? Self.defaultQueuedOutputBytes)
            self.maxBufferedInputBytes = max(1, maxBufferedInputBytes ?? Self.defaultBufferedInputBytes)
            self.maxBatchReplySize = max(1, maxBatchReplySize ?? maxMessageSize)
        }

        /// The default budget of queued input: about 1,800 small pipelined requests waiting, far more than
        /// two cores need to stay busy, while a client that pipelines 50,000 of them costs the server a
        /// megabyte or two, not the whole backlog (was twice the message limit, 32 MiB). Not less: control
        /// messages behind 1,000 requests waiting on a hanging upstream must still be read (512 KiB stopped
        /// the reading before them; `test_budgets.py`).
        public static let defaultQueuedBytes = 1 << 20

        /// The default budget of queued output: replies are what a pipelined run fills whenever the client
        /// reads more slowly than the server writes, and they are the large side (a 13 KB page for a 70-byte
        /// request); no request is taken while it is full. It was 8 MiB so that a client writing all its
        /// requests before reading was served (20,000 `server.info` need 3.6 MB of replies; 1 MiB deadlocked
        /// them), which held 16 MB of pages in a pipelined run; such a client is now served from the framing
        /// buffer (``defaultBufferedInputBytes``), where the same requests take 1.1 MB.
        public static let defaultQueuedOutputBytes = 512 << 10

        /// The default framing buffer for a client that reads nothing until it has written everything: 2 MiB,
        /// about 38,000 small requests. With the other budgets and the pipes such a client is served up to
        /// about 40,000 `server.info` or 35,000 requests for a 13 KB page (with the 8 MiB output budget: about
        /// 50,000 and 4,000). A client that reads, however slowly, never fills it (see `Connection`).
        public static let defaultBufferedInputBytes = 2 << 20

        /// What one queued request costs beyond its bytes (its job, closure and bookkeeping), so that a
        /// flood of tiny requests is bounded by `maxQueuedInputBytes` too.
        public static let requestOverhead = 512
    }

    let table: MethodTable
    let limits: Limits
    private let mapError: ErrorMapper
    private let inFlight = Mutex(InFlight())
    /// Set by the connection so handlers can send notifications.
    private let notifier = Mutex<(any NotificationSending)?>(nil)
    /// Set by the connection: its output, whose room a request waits for before it starts.
    private let replyRoom = Mutex<(any ReplyRoom)?>(nil)

    private struct InFlight {
        var requests: [RequestID: Entry] = [:]
        var nextToken: UInt64 = 0
        /// Jobs running now, at most `limits.maxConcurrentRequests`.
        var running = 0
        /// Control requests running now: they never wait for a slot of the others, but have as many of their
        /// own (and those cancelled while they waited, which only answer -32800, run outside both).
        var controlRunning = 0
        /// What the jobs not yet finished cost (`Job.cost`), against `limits.maxQueuedInputBytes`.
        var queuedInputBytes = 0
        /// Jobs waiting for a slot, oldest first: a flood of pipelined requests costs queued bytes, not
        /// thousands of live tasks.
        var waiting = FIFOQueue<Job>()
        /// Control requests waiting for one of their slots, oldest first: while the output has no room,
        /// every one started would wait as a live task (about 2 KB each; 1,800 pipelined `server.info`
        /// held 3.7 MB so), where a waiting one costs its queued bytes.
        var waitingControl = FIFOQueue<Job>()
        var waitingCount: Int { waiting.count + waitingControl.count }
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        /// Wakes the reading thread, which stopped taking requests while too many jobs wait.
        var roomWaiter: (@Sendable () -> Void)?
    }

    private struct Entry {
        var token: UInt64
        var task: Task<Void, Never>?
        var cancelRequested = false

        /// Attaches the task started for the request `token` (a later request may reuse the id), cancelled
        /// at once when a cancellation came first.
        mutating func attach(_ task: Task<Void, Never>, token: UInt64) {
            guard self.token == token else { return }
            self.task = task
            if cancelRequested { task.cancel() }
        }
    }

    /// Work for one request (or batch or notification), and the entry to attach its task to.
    private struct Job: Sendable {
        var work: Work
        /// The in-flight entry's id: nil for a notification, a batch and a request with id null.
        var id: RequestID?
        var token: UInt64
        /// A control message (``RPCMethod/isControl``): started whatever waits for a slot of the others.
        var control = false
        /// Its bytes plus `Limits.requestOverhead`, counted until it finishes.
        var cost = 0
        /// Cancelled while it waited for a slot: ``cancel(_:)`` starts it at once, to answer -32800.
        var cancelled = false
    }

    /// What a job does. A single message's call is data the task runs directly, not a closure: each closure
    /// and its reabstraction thunks were an async frame and a hop back more per request.
    private enum Work: Sendable {
        case call(MethodCall)
        /// A batch, whose members run as child tasks of this one.
        case batch(@Sendable () async -> Void)
    }

    /// One method called by a single message. A class: as a struct, the copies `run` made of it took 128
    /// bytes more of the task's frame and 300 instructions a request.
    private final class MethodCall: Sendable {
        let entry: MethodTable.Entry?
        let method: String
        let input: ParamsInput
        /// Where its answer goes; nil for a notification, which is never answered.
        let reply: Reply?
        /// The id its answer carries: the job's, or nil for `"id": null` (a request that cannot be cancelled).
        let answerID: RequestID?
        /// For a request with an id, whether its entry in `InFlight.requests` (what `cancel` finds) exists: see
        /// ``Registration``. Changed from `pending` only under the in-flight lock.
        let registration = Atomic<UInt8>(Registration.pending)

        init(entry: MethodTable.Entry?, method: String, input: ParamsInput, reply: Reply?, answerID: RequestID?) {
            self.entry = entry
            self.method = method
            self.input = input
            self.reply = reply
            self.answerID = answerID
        }
    }

    /// Where a request with an id stands with its in-flight entry. A request started on the reading thread
    /// has none while it runs there (`pending`): nothing can cancel it meanwhile, since cancellations are
    /// read by that thread too, and most are answered before they give it back, so the entry and its two
    /// hashed lookups (600 instructions before every reply) are never made. One that is not answered yet
    /// when it gives the thread back is `registered` then, with its task; every other request is
    /// `registered` before it starts.
    private enum Registration {
        static let pending: UInt8 = 0
        static let registered: UInt8 = 1
        static let answered: UInt8 = 2
    }

    public init(table: MethodTable, limits: Limits = Limits(), mapError: @escaping ErrorMapper) {
        self.table = table
        self.limits = limits
        self.mapError = mapError
    }

    func setNotifier(_ sender: any NotificationSending) {
        notifier.withLock { $0 = sender }
    }


    func setReplyRoom(_ room: any ReplyRoom) {
        replyRoom.withLock { $0 = room }
    }

    // MARK: Receiving

    /// Handles one framed message. `reply` is called at most once, possibly later and on another thread.
    public func receive(_ frame: [UInt8], reply: @escaping Reply) {
        guard UTF8Validation.isValid(frame) else {
            return reply(Self.errorResponse(id: nil, .parseError("Parse error: message is not valid UTF-8")))
        }
        // A single message's envelope members are noted as the scan passes them: read once, not walked again.
        var members = EnvelopeReader.Members()
        let scanned = frame.withUnsafeBufferPointer {
            JSONStructureScanner.scan($0, maxDepth: limits.maxDepth, members: &members)
        }
        switch scanned {
        case .failure(.tooDeep(let limit)):
            reply(Self.errorResponse(id: nil, .parseError("Parse error: nesting deeper than \(limit) levels")))
        case .failure(.invalid(let reason, let offset)):
            reply(Self.errorResponse(id: nil, .parseError("Parse error: invalid JSON at byte \(offset): \(reason)")))
        case .success(.empty):
            reply(Self.errorResponse(id: nil, .parseError("Parse error: empty message")))
        case .success(.other):
            reply(Self.errorResponse(id: nil, .invalidRequest("Invalid request: expected an object or a batch")))
        case .success(.object):
            receiveSingle(frame, members: members, reply: reply)
        case .success(.array(let elements)):
            receiveBatch(frame, elements: elements, reply: reply)
        }
    }

    /// A framing-level failure (oversized message, broken header): answered with id null.
    public func receive(framingError: FramingError, reply: Reply) {
        switch framingError {
        case .messageTooLarge(let size, let limit):
            let declared = size == Int.max ? "An absurdly long message" : "Message of \(size) bytes"
            reply(Self.errorResponse(id: nil, ResponseError(
                code: .invalidRequest,
                message: "\(declared) exceeds the limit of \(limit) bytes; it was skipped",
                data: ["kind": "messageTooLarge", "limit": .int(limit)])))
        case .invalidHeader(let reason):
            reply(Self.errorResponse(id: nil, .parseError("Parse error: \(reason)")))
        }
    }

    /// Requests and control requests started and not yet finished, for tests.
    var runningCounts: (requests: Int, control: Int) { inFlight.withLock { ($0.running, $0.controlRunning) } }

    /// In-flight entries (what `cancel` finds), for tests.
    var inFlightEntryCount: Int { inFlight.withLock { $0.requests.count } }

    /// Whether, asked while a request's reply is being sent (that request still counts as running), any
    /// other request runs or waits: its reply will follow soon, so replies can be written together.
    var hasOtherRequestsInFlight: Bool {
        inFlight.withLock { $0.running + $0.controlRunning > 1 || $0.waitingCount > 0 }
    }

    /// Waits until no request is running.
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = inFlight.withLock { state -> Bool in
                if state.running == 0 && state.controlRunning == 0 && state.waitingCount == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// A semaphore signalled when the backlog has halved, nil when there is room: `wakeWhenRoom` for a test's
    /// thread to park on.
    func roomToWait() -> DispatchSemaphore? {
        let semaphore = DispatchSemaphore(value: 0)
        return wakeWhenRoom { semaphore.signal() } ? semaphore : nil
    }

    /// Whether another request may be taken now: fewer than `limits.maxWaitingRequests` jobs wait and the
    /// unfinished ones cost less than `limits.maxQueuedInputBytes`.
    public var hasRoom: Bool {
        inFlight.withLock { !isFull($0) }
    }

    /// Registers `wake`, called once when the backlog has halved, and returns true; returns false and
    /// registers nothing when there is room now. One registration at a time: the reading thread's.
    public func wakeWhenRoom(_ wake: @escaping @Sendable () -> Void) -> Bool {
        inFlight.withLock { state -> Bool in
            guard isFull(state) else { return false }
            state.roomWaiter = wake
            return true
        }
    }

    private func isFull(_ state: InFlight) -> Bool {
        state.waitingCount >= limits.maxWaitingRequests || state.queuedInputBytes >= limits.maxQueuedInputBytes
    }

    // MARK: Single messages

    private enum Classified {
        /// Answer at once with this (already complete) reply.
        case immediate([UInt8]?)
        case request(MessageEnvelope, method: String, id: RequestID?)
    }

    /// `members`: the message's envelope members as the scanner noted them; nil (a batch's element) to read
    /// them here.
    private func classify(_ message: [UInt8], members: EnvelopeReader.Members? = nil) -> Classified {
        let envelope = message.withUnsafeBufferPointer { bytes in
            members.map { $0.envelope(in: bytes) } ?? EnvelopeReader.read(bytes)
        }
        guard let envelope else {
            // Unreachable: the structure scanner accepted these bytes as one object.
            return .immediate(Self.errorResponse(id: nil, .parseError("Parse error: invalid JSON")))
        }
        if envelope.isResponse { return .immediate(nil) }  // We send no requests, so expect no responses.
        if let problem = envelope.problem {
            return .immediate(Self.errorResponse(id: envelope.responseID, .invalidRequest("Invalid request: \(problem)")))
        }
        // safe to read: `problem` is nil only when `method` is a string.
        let method = envelope.method ?? ""
        switch envelope.id {
        case .absent:
            return .request(envelope, method: method, id: nil)
        case .null:
            return .request(envelope, method: method, id: nil)
        case .valid(let id):
            return .request(envelope, method: method, id: id)
        case .invalid:
            return .immediate(Self.errorResponse(id: nil, .invalidRequest("Invalid request: bad id")))
        }
    }

    private func receiveSingle(_ message: [UInt8], members: EnvelopeReader.Members, reply: @escaping Reply) {
        switch classify(message, members: members) {
        case .immediate(let response):
            if let response { reply(response) }
        case .request(let envelope, let method, let id):
            if envelope.id == .absent {
                receiveNotification(envelope, method: method, message: message)
            } else {
                startRequest(envelope, method: method, id: id, message: message, reply: reply)
            }
        }
    }

    private func receiveNotification(_ envelope: MessageEnvelope, method: String, message: [UInt8]) {
        let input = ParamsInput(message: message, envelope: envelope)
        // LSP's `$/cancelRequest {id}` and MCP's `notifications/cancelled {requestId}` cancel the same way.
        if method == "$/cancelRequest" || method == "notifications/cancelled" {
            if let id = try? JSONDecoder().decode(CancelParams.self, from: Data(message)).params.id { cancel(id) }
            return
        }
        if let handler = table.notificationHandler(for: method) {
            handler(input)
            return
        }
        guard let entry = table.entry(for: method) else {
            Log.debug("Ignoring unknown notification \(method)")
            return
        }
        // A method sent as a notification still runs; its result is not sent.
        let call = MethodCall(entry: entry, method: method, input: input, reply: nil, answerID: nil)
        track(.call(call), cost: message.count + Limits.requestOverhead)
    }

    private func startRequest(
        _ envelope: MessageEnvelope, method: String, id: RequestID?, message: [UInt8], reply: @escaping Reply
    ) {
        let input = ParamsInput(message: message, envelope: envelope)
        // Looked up once here: the handler and whether it is a control message.
        let entry = table.entry(for: method)
        let control = entry?.isControl ?? false
        let cost = message.count + Limits.requestOverhead
        let call = MethodCall(entry: entry, method: method, input: input, reply: reply, answerID: id)
        // `"id": null` is a request whose answer carries id null; it cannot be cancelled (no in-flight id).
        track(.call(call), id: id, control: control, cost: cost)
    }

    /// Cancels the in-flight request `id`; it then answers -32800. Unknown ids are ignored. A request still
    /// waiting for a slot is taken out of the queue and answered at once, not when its turn comes.
    public func cancel(_ id: RequestID) {
        let waiting = inFlight.withLock { state -> Job? in
            guard let entry = state.requests[id] else { return nil }
            state.requests[id]?.cancelRequested = true
            entry.task?.cancel()
            let isJob = { (job: Job) in job.token == entry.token && job.id == id }
            guard entry.task == nil,
                var job = state.waiting.removeFirst(where: isJob) ?? state.waitingControl.removeFirst(where: isJob)
            else { return nil }
            job.control = true  // started now, outside the concurrency limit: it only answers -32800
            job.cancelled = true
            state.controlRunning += 1
            return job
        }
        if let waiting { start(waiting) }
    }

    /// Runs `work` in a task of its own counted as in flight, now or when a slot frees up. `id`: the id a
    /// method call can be cancelled by.
    private func track(_ work: Work, id: RequestID? = nil, control: Bool = false, cost: Int) {
        var job = Job(work: work, id: id, token: 0, control: control, cost: cost)
        enum Start { case no, onItsOwn, here }
        let start = inFlight.withLock { state -> Start in
            let start = decideStart(&job, &state)
            // The in-flight entry, unless the job starts on this thread (see `Registration`).
            if start != .here, let id, case .call(let call) = job.work {
                state.requests[id] = Entry(token: job.token)
                call.registration.store(Registration.registered, ordering: .relaxed)
            }
            return start
        }
        switch start {
        case .no: break
        case .onItsOwn: self.start(job)
        case .here: self.start(job, here: true)
        }

        /// Counts `job` in and says where it starts. Under the in-flight lock.
        func decideStart(_ job: inout Job, _ state: inout InFlight) -> Start {
            if job.id != nil {
                state.nextToken += 1
                job.token = state.nextToken
            }
            state.queuedInputBytes += cost
            if control {
                guard state.controlRunning < limits.maxConcurrentRequests else {
                    state.waitingControl.append(job)
                    return .no
                }
                state.controlRunning += 1
            } else {
                guard state.running < limits.maxConcurrentRequests else {
                    state.waiting.append(job)
                    return .no
                }
                state.running += 1
            }
            // Whatever else runs: one that has suspended no longer holds this thread, and one started here has
            // returned. (Started here only while nothing else ran, a pipelined run went to the global
            // executor for good at the first suspension, one hop and wake-up a request: 0.23 context switches
            // a request against 0.05.)
            return cost <= Self.maxCostStartedHere ? .here : .onItsOwn
        }
    }

    /// The largest request (bytes plus overhead, so a message of up to 512 bytes) that may start on the
    /// thread that read it: its params are decoded there, at 50-100 instructions a byte, while that thread
    /// reads nothing. Pipelined `favorites.contains` for 100 ids (950 bytes) decoded there ran at 0.76 of
    /// the speed it had on the global executor, with twice the context switches (0.94 against 0.48 a
    /// request, paired runs); at this bound it is back (1.01) and small requests keep the reading thread.
    static let maxCostStartedHere = 512 + Limits.requestOverhead

    /// Starts `job`'s task: on the global executor, or `here`, on the calling thread (the reading thread)
    /// until the task's first suspension, after which it goes on in the global executor. A request answered
    /// from memory then costs no wake-up of another thread.
    private func start(_ job: Job, here: Bool = false) {
        // Every request takes this one path, a task with no executor preference. Started here, it runs on
        // this thread only until it first suspends: it never takes the reading thread with it (a preference
        // would, with the default actors it calls), so a slow query never stops the reading of control
        // messages. A job started from `finished` (another request's end) is never started here, so that a
        // backlog is never worked through recursively on one stack. (The operations are written out where
        // the tasks are made, in the type each takes: a closure stored first was converted to it by three
        // thunks, each an async frame, on every request.)
        let task =
            here
            ? Task.immediate { @concurrent [self] in await run(job) }
            : Task.detached { @concurrent [self] in await run(job) }
        guard let id = job.id, case .call(let call) = job.work else { return }
        inFlight.withLock { state in
            if here {
                // Given back unanswered: from now on it can be cancelled. Claimed before the entry is made, both
                // under the lock: an answer that comes first leaves nothing to make, and one that comes after
                // removes the entry under the lock, once it is made.
                guard
                    call.registration.compareExchange(
                        expected: Registration.pending, desired: Registration.registered, ordering: .relaxed
                    ).exchanged
                else { return }
                state.requests[id] = Entry(token: job.token, task: task)
            } else if let index = state.requests.index(forKey: id) {
                // Through its index: the optional-chained subscript's accessor took a malloc per request.
                state.requests.values[index].attach(task, token: job.token)
            }
        }
    }

    /// A job's task: waits for room for its reply, does its work, and counts it finished.
    private func run(_ job: Job) async {
        // Cancelled while it waited for a slot: cancelled from its start, whether or not the task is
        // attached yet. (A cancellation between this start and the attaching is seen by `attach`.)
        if job.cancelled { withUnsafeCurrentTask { $0?.cancel() } }
        // Control requests too: a client that does not read gains nothing from their being answered, and a
        // flood of them must not grow the output past its budget either. Asked first, so that the common
        // case (room) costs no suspension point.
        if let room = replyRoom.withLock({ $0 }), room.isFull { await room.waitForRoom() }
        switch job.work {
        case .call(let call):
            let response = await answer(call.entry, method: call.method, id: call.answerID, input: call.input).bytes
            if let id = job.id { answered(call, id: id, token: job.token) }
            call.reply?(response)
        case .batch(let body):
            await body()
        }
        finished(job)
    }

    /// The request `id` (started as `token`) is answered: it can no longer be cancelled.
    private func answered(_ call: MethodCall, id: RequestID, token: UInt64) {
        // Still `pending`: it never had an entry, and now never will.
        guard call.registration.exchange(Registration.answered, ordering: .relaxed) == Registration.registered
        else { return }
        inFlight.withLock { state in
            // One lookup: the entry is this request's unless a later one reused the id.
            if let index = state.requests.index(forKey: id), state.requests.values[index].token == token {
                state.requests.remove(at: index)
            }
        }
    }

    /// A job ended: start the next waiting one, let the reading thread read on once the backlog has
    /// halved, or release whoever waits for idleness.
    private func finished(_ job: Job) {
        let (next, waiters, reader) = inFlight.withLock {
            state -> (Job?, [CheckedContinuation<Void, Never>], (@Sendable () -> Void)?) in
            state.queuedInputBytes -= job.cost
            var next: Job?
            if job.control {
                if !job.cancelled, let waiting = state.waitingControl.popFirst() {
                    next = waiting
                } else {
                    state.controlRunning -= 1
                }
            } else if let waiting = state.waiting.popFirst() {
                next = waiting
            } else {
                state.running -= 1
            }
            var reader: (@Sendable () -> Void)?
            if state.waitingCount <= limits.maxWaitingRequests / 2
                && state.queuedInputBytes <= limits.maxQueuedInputBytes / 2
            {
                swap(&reader, &state.roomWaiter)
            }
            guard next == nil, state.running == 0, state.controlRunning == 0 else { return (next, [], reader) }
            defer { state.idleWaiters = [] }
            return (nil, state.idleWaiters, reader)
        }
        reader?()
        if let next { start(next) }
        for waiter in waiters { waiter.resume() }
    }

    /// Calls the handler of `entry` (nil: no such method) and builds the one reply for this request, and
    /// whether it is an error (a batch keeps errors past its budget, never results).
    private func answer(
        _ entry: MethodTable.Entry?, method: String, id: RequestID?, input: ParamsInput
    ) async -> (bytes: [UInt8], isError: Bool) {
        let sender = notifier.withLock { $0 }
        let context = RequestContext(id: id, method: method, notifier: sender)
        do {
            guard let writeReply = entry?.writeReply else { throw ResponseError.methodNotFound(method) }
            if Task.isCancelled { return (Self.errorResponse(id: id, .cancelled), true) }
            // A handler that stops for a cancellation throws; one that finished anyway (a write already
            // committed) answers with its result, which is then the truth, rather than -32800.
            var reply = try await writeReply(input, context, Self.successResponseStart(id: id))
            reply.append(UInt8(ascii: "}"))
            return (reply, false)
        } catch let error as ResponseError {
            return (Self.errorResponse(id: id, error), true)
        } catch {
            if Task.isCancelled || error is CancellationError { return (Self.errorResponse(id: id, .cancelled), true) }
            return (Self.errorResponse(id: id, mapError(error)), true)
        }
    }

    // MARK: Batches

    private func receiveBatch(_ frame: [UInt8], elements: [Range<Int>], reply: @escaping Reply) {
        guard !elements.isEmpty else {
            return reply(Self.errorResponse(id: nil, .invalidRequest("Invalid request: empty batch")))
        }
        var immediate: [[UInt8]] = []
        var pending: [(MessageEnvelope, String, RequestID?, [UInt8])] = []
        for range in elements {
            let message = Array(frame[range])
            guard frame[range.lowerBound] == UInt8(ascii: "{") else {
                immediate.append(Self.errorResponse(id: nil, .invalidRequest("Invalid request: expected an object")))
                continue
            }
            switch classify(message) {
            case .immediate(let response):
                if let response { immediate.append(response) }
            case .request(let envelope, let method, let id):
                if envelope.id == .absent {
                    receiveNotification(envelope, method: method, message: message)
                } else {
                    pending.append((envelope, method, id, message))
                }
            }
        }
        if pending.isEmpty {
            if !immediate.isEmpty { reply(Self.batchResponse(immediate)) }
            return
        }
        let requests = pending
        let answered = immediate
        track(.batch { [self] in
            var budget = BatchReplyBudget(limit: limits.maxBatchReplySize, answered: answered)
            // A batch's members run concurrently, but no more of them at once than the request limit.
            let window = limits.maxConcurrentRequests
            await withTaskGroup(of: (RequestID?, [UInt8], Bool).self) { group in
                var started = 0
                for (envelope, method, id, message) in requests {
                    if started >= window, let (id, reply, isError) = await group.next() {
                        budget.add(reply, isError: isError, id: id)
                    }
                    // Past the budget nothing more runs: its answer could not be sent anyway.
                    guard !budget.isExhausted else {
                        let refused = Self.errorResponse(id: id, .replyTooLarge(limit: budget.limit, ran: false))
                        budget.add(refused, isError: true, id: id)
                        continue
                    }
                    let input = ParamsInput(message: message, envelope: envelope)
                    let entry = table.entry(for: method)
                    group.addTask {
                        let (reply, isError) = await self.answer(entry, method: method, id: id, input: input)
                        return (id, reply, isError)
                    }
                    started += 1
                }
                for await (id, reply, isError) in group { budget.add(reply, isError: isError, id: id) }
            }
            reply(Self.batchResponse(budget.parts))
        }, cost: frame.count * 2 + Limits.requestOverhead)
    }

    // MARK: Encoding replies

    static func successResponse(id: RequestID?, result: [UInt8]) -> [UInt8] {
        var out = successResponseStart(id: id, capacity: result.count + 64)
        out.append(contentsOf: result)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A success reply up to its result, which the handler appends (then `}` closes it). By default room for
    /// a small result: 992 bytes and the array's header are 1 KiB, the largest block glibc's malloc keeps in
    /// its per-thread cache (1,024 bytes were a slower allocation and free on every request); a large result
    /// reserves what it needs when it is written.
    static func successResponseStart(id: RequestID?, capacity: Int = 992) -> [UInt8] {
        responseStart(id: id, then: #","result":"#, capacity: capacity)
    }

    static func errorResponse(id: RequestID?, _ error: ResponseError) -> [UInt8] {
        var out = responseStart(id: id, then: #","error":"#, capacity: 128)
        // Encoding a ResponseError cannot fail: it holds only strings, numbers and JSONValue.
        out.append(contentsOf: (try? ResultEncoding.encode(error)) ?? Array(#"{"code":-32603,"message":"Internal error"}"#.utf8))
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func batchResponse(_ parts: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(2) { $0 + $1.count + 1 })
        out.append(UInt8(ascii: "["))
        for (index, part) in parts.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: part)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// A reply up to its `result` or `error` member's value (`member`: that member's `,"name":`), in one
    /// writer: the id is written as results are (`JSONWriter` matches `ResultEncoding`), and the literals
    /// without the once-check of a static array.
    private static func responseStart(id: RequestID?, then member: StaticString, capacity: Int) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity)
        writer.fragment(#"{"jsonrpc":"2.0","id":"#)
        switch id {
        case nil: writer.null()
        case .int(let value): writer.value(value)
        case .string(let value): writer.value(value)
        }
        writer.fragment(member)
        return writer.takeBytes()
    }
}

/// The replies of one batch: its results fill at most `limit` bytes. A result that would go past it is
/// replaced by a `replyTooLarge` error (the request was carried out), and from then on members are not
/// run. Errors are always kept, past the limit too: each is small, and every member is answered once.
struct BatchReplyBudget {
    let limit: Int
    private(set) var parts: [[UInt8]]
    /// Bytes of the batch reply so far: the brackets, the parts and their commas.
    private(set) var size: Int
    private(set) var isExhausted = false

    init(limit: Int, answered: [[UInt8]]) {
        self.limit = limit
        self.parts = answered
        self.size = answered.reduce(2) { $0 + $1.count + 1 }
    }

    mutating func add(_ reply: [UInt8], isError: Bool, id: RequestID?) {
        var reply = reply
        if size + reply.count + 1 > limit {
            isExhausted = true
            if !isError { reply = Dispatcher.errorResponse(id: id, .replyTooLarge(limit: limit, ran: true)) }
        }
        size += reply.count + 1
        parts.append(reply)
    }
}

private struct CancelParams: Decodable {
    struct Inner: Decodable {
        let id: RequestID

        private enum CodingKeys: String, CodingKey { case id, requestId }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(RequestID.self, forKey: .id)
                ?? container.decode(RequestID.self, forKey: .requestId)
        }
    }
    let params: Inner
}
