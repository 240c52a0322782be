#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CNonBlockingWrite
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The protocol output: whole frames in order, never interleaved, and no sender ever blocked by a client that
/// does not read.
///
/// One writer at a time takes the queued frames and writes them together in one `write`:
/// - **A sender** that finds nobody writing writes its frame itself (and whatever queued meanwhile) with a
///   write that cannot block (`pwritev2` with `RWF_NOWAIT`: the descriptor stays in blocking mode, whose flag
///   the parent process shares). A round trip then costs no thread wake-up. What does not fit in the pipe
///   goes to the writer thread.
/// - **The writer thread** waits for the client to read. It also takes the replies of requests that finish
///   while others are in flight (`moreComing`), so that they go out together rather than one `write` each.
/// - **The reading thread** holds the output while it takes a run of requests from one read
///   (``holdWrites()``, ``releaseWrites()``): their replies queue and go out in one `write` when it releases
///   (before the run's last request, whose reply its sender writes), or as soon as a pipe's worth waits.
///
/// Frames wait in a queue with a byte budget (`maxQueuedBytes`), each counted by its buffer's capacity, the
/// memory it holds (a reply's buffer may be up to twice its bytes). The budget is not enforced here, where a
/// reply must never be lost, but by the reading thread, which takes no request while the queue is full
/// (`isFull`, `wakeWhenRoom`), and the dispatcher, which starts none (`waitForRoom`): a client that stops
/// reading holds back the input, and the pipe holds back the client. After the peer goes away (EPIPE) further
/// frames are dropped quietly.
final class OutputChannel: ReplyRoom {
    private let fd: Int32
    let maxQueuedBytes: Int
    private let state = Mutex(State())
    /// The frames being written, framed into one buffer: used only by the writer of the moment (`State.writer`),
    /// so its lock is never contended; kept between writes so that gathering allocates nothing.
    private let gathered = Mutex<[UInt8]>([])
    /// Wakes the writer thread when it is parked and has work.
    private let wakeWriter = DispatchSemaphore(value: 0)
    /// The framing's name apart from `state`: reading it must never wait.
    private let framingNameStorage = Mutex<String?>(nil)
    /// Cleared when the output refuses writes that cannot block (not a pipe or socket, an old kernel): every
    /// frame then goes through the writer thread.
    private let writesWithoutBlocking = Atomic<Bool>(true)
    /// Frames are gathered into one write up to this many bytes (a large frame is written alone).
    static let gatherLimit = 256 * 1024
    /// While the reading thread holds the output, replies queue until this many bytes wait (a pipe's default
    /// capacity), then go out: a long run of requests is not answered all at its end.
    static let heldBytesLimit = 64 * 1024

    private enum Writer {
        /// Nobody writes: the next sender does (or the reading thread, when it releases).
        case none
        /// A sender writes on its own thread, without blocking.
        case sender
        /// The writer thread writes (or is about to wake up to).
        case thread
    }

    private struct State {
        /// The framing's type: what replies are framed by (``MessageFraming/envelope(ofBodyCount:)``). A type,
        /// not a parser's value: passed along with every write, it is copied as a pointer.
        var framing: (any MessageFraming.Type)?
        var queue = FIFOQueue<[UInt8]>()
        var queuedBytes = 0
        var writer = Writer.none
        /// The reading thread is taking a run of requests (see ``holdWrites()``).
        var held = false
        /// What a sender left unwritten for the writer thread: the bytes of `gathered` from `offset` on, and
        /// the cost of the frames they finish.
        var leftover: (offset: Int, cost: Int)?
        var closed = false
        var threadStarted = false
        /// The writer thread waits on `wakeWriter`.
        var threadParked = false
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        /// Called when the queue reaches its budget (see ``whenFull(_:)``).
        var whenFull: (@Sendable () -> Void)?
        /// Called once when the queue is down to half its budget (see ``wakeWhenRoom(_:)``).
        var roomHook: (@Sendable () -> Void)?
        var drainWaiters: [CheckedContinuation<Void, Never>] = []

        var isIdle: Bool { queue.isEmpty && writer == .none }

        /// Takes the next frames to write together: the oldest, and those behind it up to `gatherLimit`.
        mutating func takeFrames() -> (frames: Frames, cost: Int) {
            guard let first = queue.popFirst() else { return (.several([]), 0) }
            var bytes = first.count
            var cost = first.capacity
            guard let second = queue.first, bytes + second.count <= OutputChannel.gatherLimit else {
                return (.one(first), cost)
            }
            var frames = [first]
            while let next = queue.first, bytes + next.count <= OutputChannel.gatherLimit {
                _ = queue.popFirst()
                frames.append(next)
                bytes += next.count
                cost += next.capacity
            }
            return (.several(frames), cost)
        }

        /// Hands the writing to the writer thread; true when it must be woken.
        mutating func handToThread() -> Bool {
            writer = .thread
            defer { threadParked = false }
            return threadParked || !threadStarted
        }
    }

    init(fd: Int32, maxQueuedBytes: Int = 32 * 1024 * 1024) {
        self.fd = fd
        self.maxQueuedBytes = max(1, maxQueuedBytes)
    }

    /// Set once the input's framing is known; replies use the same framing.
    func setFraming(_ framing: any MessageFraming) {
        state.withLock { $0.framing = type(of: framing) }
        framingNameStorage.withLock { $0 = framing.name }
    }

    var framingName: String? { framingNameStorage.withLock { $0 } }

    /// What the frames queued and not yet written hold: their buffers' capacity.
    var queuedBytes: Int { state.withLock { $0.queuedBytes } }

    /// Writes completed so far, each of at most ``progressChunk`` bytes: unchanged while the client reads
    /// nothing, and moving at least every `progressChunk` bytes it reads.
    var completedWrites: UInt64 { writes.load(ordering: .relaxed) }
    private let writes = Atomic<UInt64>(0)
    /// The pipe's default capacity: a gathered write goes out in pieces this large, so that a client that
    /// reads is seen to (a single 256 KiB write returns only once the client has read most of it).
    static let progressChunk = 64 * 1024

    /// Whether the queue holds its budget or more: no request is taken or started until it has room.
    var isFull: Bool { state.withLock { $0.queuedBytes >= maxQueuedBytes && !$0.closed } }

    /// Sets `hook`, called (on the sending thread, outside the lock) each time a frame fills the queue.
    func whenFull(_ hook: @escaping @Sendable () -> Void) {
        state.withLock { $0.whenFull = hook }
    }

    /// Registers `wake`, called once when the queue is down to half its budget, and returns true; returns
    /// false and registers nothing when it is not full. One registration at a time: the reading thread's.
    func wakeWhenRoom(_ wake: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state -> Bool in
            guard state.queuedBytes >= maxQueuedBytes && !state.closed else { return false }
            state.roomHook = wake
            return true
        }
    }

    /// The reading thread takes a run of requests read together: until ``releaseWrites()``, replies queue
    /// (up to ``heldBytesLimit``) instead of each going out in a `write` of its own.
    func holdWrites() {
        state.withLock { $0.held = true }
    }

    /// Ends ``holdWrites()``: what queued meanwhile goes out now, written by this thread when nobody else
    /// writes.
    func releaseWrites() {
        let start = state.withLock { state -> Start in
            state.held = false
            return startWriting(&state)
        }
        perform(start)
    }

    /// Queues one message body to be written in order, and returns at once; written by this thread when nobody
    /// else writes and it cannot block. `moreComing` (other requests are in flight) leaves it to the writer
    /// thread instead, which gathers the replies that are ready into one `write`.
    func send(_ body: [UInt8], moreComing: Bool = false) {
        let (start, filled) = state.withLock { state -> (Start, (@Sendable () -> Void)?) in
            guard !state.closed else { return (.nothing, nil) }
            let wasFull = state.queuedBytes >= maxQueuedBytes
            state.queue.append(body)
            state.queuedBytes += body.capacity
            let filled = wasFull || state.queuedBytes < maxQueuedBytes ? nil : state.whenFull
            return (startWriting(&state, byThread: moreComing), filled)
        }
        filled?()
        perform(start)
    }

    private enum Start {
        case nothing
        /// Write these frames on this thread, without blocking.
        case write(frames: Frames, cost: Int, framing: any MessageFraming.Type)
        case wakeThread
    }

    /// Frames taken to be written together. Most often a reply goes alone (`one`): it is then written where it
    /// is, with its framing's header and trailer beside it, not copied into `gathered` behind an array made
    /// for it (about 500 instructions a reply).
    private enum Frames {
        case one([UInt8])
        case several([[UInt8]])

        var all: [[UInt8]] {
            switch self {
            case .one(let frame): [frame]
            case .several(let frames): frames
            }
        }
    }

    /// Who writes what is queued, when nobody writes now and the reading thread does not hold the output.
    private func startWriting(_ state: inout State, byThread: Bool = false) -> Start {
        guard state.writer == .none, !state.queue.isEmpty, !state.closed else { return .nothing }
        if state.held && state.queuedBytes < Self.heldBytesLimit { return .nothing }
        guard !byThread, writesWithoutBlocking.load(ordering: .relaxed) else {
            return state.handToThread() ? .wakeThread : .nothing
        }
        state.writer = .sender
        let (frames, cost) = state.takeFrames()
        return .write(frames: frames, cost: cost, framing: state.framing ?? NewlineFraming.self)
    }

    private func perform(_ start: Start) {
        switch start {
        case .nothing: break
        case .wakeThread: wakeThread()
        case .write(let frames, let cost, let framing): writeAsSender(frames, cost: cost, framing: framing)
        }
    }

    /// Writes `frames` on the sender's thread with writes that cannot block, then what queued meanwhile (one
    /// more batch at most: a sender has its own work to go back to); what does not fit in the pipe now is
    /// left to the writer thread.
    private func writeAsSender(_ frames: Frames, cost: Int, framing: any MessageFraming.Type) {
        var batch = (frames: frames, cost: cost, framing: framing)
        var batches = 0
        while true {
            batches += 1
            let outcome = write(batch.frames, framing: batch.framing)
            enum Next { case done, another(frames: Frames, cost: Int, framing: any MessageFraming.Type), wake }
            let (next, released) = state.withLock { state -> (Next, Released) in
                switch outcome {
                case .written:
                    let released = finished(cost: batch.cost, failed: false, &state)
                    guard !state.queue.isEmpty, !state.closed,
                        !state.held || state.queuedBytes >= Self.heldBytesLimit
                    else {
                        state.writer = .none
                        return (.done, released.adding(idle: &state))
                    }
                    guard batches < 2 else { return (state.handToThread() ? .wake : .done, released) }
                    let (frames, cost) = state.takeFrames()
                    return (.another(frames: frames, cost: cost, framing: state.framing ?? NewlineFraming.self), released)
                case .failed:
                    let released = finished(cost: batch.cost, failed: true, &state)
                    state.writer = .none
                    return (.done, released.adding(idle: &state))
                case .incomplete(let offset):
                    state.leftover = (offset, batch.cost)
                    return (state.handToThread() ? .wake : .done, Released())
                }
            }
            released.resume()
            switch next {
            case .done: return
            case .wake: return wakeThread()
            case .another(let frames, let cost, let framing): batch = (frames, cost, framing)
            }
        }
    }

    private enum NonBlockingOutcome {
        case written
        /// Written up to `offset` (possibly 0); the rest would have waited.
        case incomplete(offset: Int)
        case failed
    }

    /// Writes `frames` as far as the output takes them now. What is left for the writer thread (`incomplete`)
    /// is in `gathered`, from the offset given.
    private func write(_ frames: Frames, framing: any MessageFraming.Type) -> NonBlockingOutcome {
        if case .one(let body) = frames {
            let envelope = framing.envelope(ofBodyCount: body.count)
            let count = envelope.header.count + body.count + envelope.trailer.count
            if count <= Self.progressChunk {
                let outcome = writeWithoutBlocking(envelope.header, body, envelope.trailer, count: count)
                if case .incomplete = outcome {
                    gathered.withLock { gathered in Self.gather([body], framing: framing, into: &gathered) }
                }
                return outcome
            }
        }
        return gathered.withLock { gathered -> NonBlockingOutcome in
            Self.gather(frames.all, framing: framing, into: &gathered)
            return writeWithoutBlocking(gathered)
        }
    }

    /// Writes a frame of at most `progressChunk` bytes in its three parts with one write that cannot block.
    private func writeWithoutBlocking(
        _ header: [UInt8], _ body: [UInt8], _ trailer: [UInt8], count: Int
    ) -> NonBlockingOutcome {
        while true {
            let written = header.withUnsafeBytes { header in
                body.withUnsafeBytes { body in
                    trailer.withUnsafeBytes { trailer in
                        movie_rpc_write3_nowait(
                            fd, header.baseAddress, header.count, body.baseAddress, body.count,
                            trailer.baseAddress, trailer.count)
                    }
                }
            }
            if written > 0 {
                writes.add(1, ordering: .relaxed)
                return written == count ? .written : .incomplete(offset: written)
            }
            if let outcome = outcomeOfNothingWritten(offset: 0) { return outcome }
        }
    }

    /// What a write that wrote nothing means (by `errno`), the bytes before `offset` written: nil when it was
    /// interrupted and is tried again.
    private func outcomeOfNothingWritten(offset: Int) -> NonBlockingOutcome? {
        switch errno {
        case EINTR: return nil
        case EAGAIN: return .incomplete(offset: offset)
        case EOPNOTSUPP, EINVAL, ENOSYS:
            // This output cannot take writes that do not block: the writer thread writes from now on.
            writesWithoutBlocking.store(false, ordering: .relaxed)
            return .incomplete(offset: offset)
        default:
            return .failed
        }
    }

    /// Writes `bytes` as far as the output takes them now.
    private func writeWithoutBlocking(_ bytes: [UInt8]) -> NonBlockingOutcome {
        bytes.withUnsafeBytes { all -> NonBlockingOutcome in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + Self.progressChunk)
                let written = movie_rpc_write_nowait(fd, all.baseAddress.map { $0 + offset }, end - offset)
                if written > 0 {
                    offset += written
                    writes.add(1, ordering: .relaxed)
                    continue
                }
                if let outcome = outcomeOfNothingWritten(offset: offset) { return outcome }
            }
            return .written
        }
    }

    private static func gather(_ frames: [[UInt8]], framing: any MessageFraming.Type, into gathered: inout [UInt8]) {
        gathered.removeAll(keepingCapacity: gathered.capacity <= gatherLimit * 2)
        for frame in frames {
            frame.withUnsafeBytes { framing.frame($0, into: &gathered) }
        }
    }

    /// Returns once the queue is below its budget (at once when it is).
    func waitForRoom() async {
        guard isFull else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let hasRoom = state.withLock { state -> Bool in
                if state.queuedBytes < maxQueuedBytes || state.closed { return true }
                state.roomWaiters.append(continuation)
                return false
            }
            if hasRoom { continuation.resume() }
        }
    }

    /// Returns once every queued frame has been written (or dropped, the client gone). Replies held by the
    /// reading thread are written first.
    func drain() async {
        releaseWrites()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.isIdle { return true }
                state.drainWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func wakeThread() {
        let start = state.withLock { state -> Bool in
            defer { state.threadStarted = true }
            return !state.threadStarted
        }
        if start, !DedicatedThread.start(name: "movie-rpc stdout", { [self] in writeLoop() }) {
            Log.error("Could not start the thread that writes output")
        }
        wakeWriter.signal()
    }

    /// The writer thread: writes what senders hand it, blocking while the client does not read, until the
    /// queue is empty; then parks.
    private func writeLoop() {
        while true {
            wakeWriter.wait()
            while let work = takeThreadWork() {
                let ok = gathered.withLock { gathered -> Bool in
                    if work.frames.isEmpty { return writeAll(&gathered, from: work.offset) }
                    Self.gather(work.frames, framing: work.framing, into: &gathered)
                    return writeAll(&gathered, from: 0)
                }
                state.withLock { state in finished(cost: work.cost, failed: !ok, &state) }.resume()
            }
        }
    }

    /// The writer thread's next write: a sender's leftover (the bytes of `gathered` from `offset`, no frames),
    /// or frames from the queue; nil when there is nothing, and the thread parks.
    private struct ThreadWork {
        var frames: [[UInt8]]
        var offset: Int
        var cost: Int
        var framing: any MessageFraming.Type
    }

    private func takeThreadWork() -> ThreadWork? {
        let (work, released) = state.withLock { state -> (ThreadWork?, Released) in
            let framing = state.framing ?? NewlineFraming.self
            if let leftover = state.leftover {
                state.leftover = nil
                return (ThreadWork(frames: [], offset: leftover.offset, cost: leftover.cost, framing: framing), Released())
            }
            guard !state.queue.isEmpty, !state.closed else {
                state.writer = .none
                state.threadParked = true
                return (nil, Released().adding(idle: &state))
            }
            let (frames, cost) = state.takeFrames()
            return (ThreadWork(frames: frames.all, offset: 0, cost: cost, framing: framing), Released())
        }
        released.resume()
        return work
    }

    /// Writes `bytes[offset...]`, blocking until the client has read enough (the writer thread only).
    private func writeAll(_ bytes: inout [UInt8], from offset: Int) -> Bool {
        if state.withLock({ $0.closed }) { return true }
        return bytes.withUnsafeMutableBytes { all in
            var start = offset
            while start < all.count {
                let end = min(all.count, start + Self.progressChunk)
                guard FileDescriptorWriter.writeAll(fd: fd, UnsafeMutableRawBufferPointer(rebasing: all[start..<end]))
                else { return false }
                writes.add(1, ordering: .relaxed)
                start = end
            }
            return true
        }
    }

    /// Who waits for room or for the end, released once the lock is let go.
    private struct Released {
        var room: [CheckedContinuation<Void, Never>] = []
        var hook: (@Sendable () -> Void)?
        var drained: [CheckedContinuation<Void, Never>] = []

        /// Adds the drain waiters when the output is idle.
        func adding(idle state: inout State) -> Released {
            var released = self
            if state.isIdle { swap(&released.drained, &state.drainWaiters) }
            return released
        }

        func resume() {
            hook?()
            for waiter in room + drained { waiter.resume() }
        }
    }

    /// Frames that cost `cost` were written (or failed): who waits for room is released at half the budget.
    private func finished(cost: Int, failed: Bool, _ state: inout State) -> Released {
        state.queuedBytes -= cost
        if failed && !state.closed {
            state.closed = true
            // Nothing more will be written: forget the queue, so nobody waits for room that never comes.
            while let dropped = state.queue.popFirst() { state.queuedBytes -= dropped.capacity }
            Log.info("Output closed by the client; further replies are dropped")
        }
        var released = Released()
        // Released at half the budget, not just under it: a waiter does not wake for every small frame.
        if state.queuedBytes <= maxQueuedBytes / 2 || state.closed {
            swap(&released.room, &state.roomWaiters)
            swap(&released.hook, &state.roomHook)
        }
        return released
    }
}
