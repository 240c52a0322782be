#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The protocol output: whole frames in order, never interleaved, written by a thread of its own so that no
/// sender (a task on a cooperative thread, the reading thread) ever blocks on a client that does not read.
///
/// Frames wait in a queue with a byte budget (`maxQueuedBytes`), each counted by its buffer's capacity, the
/// memory it holds (a reply's buffer may be up to twice its bytes). The budget is not enforced here, where a
/// reply must never be lost, but by the reading thread, which takes no request while the queue is full
/// (`isFull`, `wakeWhenRoom`), and the dispatcher, which starts none (`waitForRoom`): a client that stops
/// reading holds back the input, and the pipe holds back the client. When many frames are ready the writer sends them in one `write`. When
/// nothing is queued or being written and the pipe is empty, with room for the whole frame, the sender
/// writes it itself: a round trip then costs no thread wake-up. After the peer goes away (EPIPE) further
/// frames are dropped quietly.
final class OutputChannel: ReplyRoom {
    private let fd: Int32
    let maxQueuedBytes: Int
    private let state = Mutex(State())
    /// Wakes the writer thread when frames are queued.
    private let wakeWriter = DispatchSemaphore(value: 0)
    /// The framing's name apart from `state`: reading it must never wait.
    private let framingNameStorage = Mutex<String?>(nil)
    /// Frames are gathered into one write up to this many bytes (a large frame is written alone).
    static let gatherLimit = 256 * 1024

    private struct State {
        var framing: (any MessageFraming)?
        var queue = FIFOQueue<[UInt8]>()
        var queuedBytes = 0
        /// The writer is writing frames it has taken off the queue.
        var writing = false
        var closed = false
        var writerStarted = false
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        /// Called when the queue reaches its budget (see ``whenFull(_:)``).
        var whenFull: (@Sendable () -> Void)?
        /// Called once when the queue is down to half its budget (see ``wakeWhenRoom(_:)``).
        var roomHook: (@Sendable () -> Void)?
        var drainWaiters: [CheckedContinuation<Void, Never>] = []

        var isIdle: Bool { queue.isEmpty && !writing }
    }

    /// The output pipe's capacity in pages (`F_GETPIPE_SZ`); 0 when the output is not a pipe, whose
    /// writes could block (a socket, a terminal): then every frame goes through the writer thread.
    private let pipePages: Int
    private static let pageSize = max(4096, sysconf(Int32(_SC_PAGESIZE)))

    init(fd: Int32, maxQueuedBytes: Int = 32 * 1024 * 1024) {
        self.fd = fd
        self.maxQueuedBytes = max(1, maxQueuedBytes)
        let capacity = fcntl(fd, Self.getPipeSize)
        self.pipePages = capacity > 0 ? Int(capacity) / Self.pageSize : 0
    }

    /// `F_GETPIPE_SZ` (Linux), which Glibc's Swift module leaves out.
    private static let getPipeSize: Int32 = 1032

    /// Whether `count` bytes written now cannot block: only when the pipe is empty. A pipe holds its bytes
    /// in page-sized slots, and a write shares the last slot only when it fits there whole, so unread bytes
    /// say little about the slots they take: 48 KB of 1 KB replies fill all 16 slots of a 64 KiB pipe (each
    /// holds three), and a write then blocks the sender, which may be the reading thread.
    private func pipeHasRoom(for count: Int) -> Bool {
        guard pipePages > 0 else { return false }
        var unread: CInt = 0
        guard ioctl(fd, UInt(FIONREAD), &unread) == 0 else { return false }
        return unread == 0 && (count + Self.pageSize - 1) / Self.pageSize <= pipePages
    }

    /// Set once the input's framing is known; replies use the same framing.
    func setFraming(_ framing: any MessageFraming) {
        state.withLock { $0.framing = framing }
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

    /// Writes one message body now when that cannot block and nothing is ahead of it, else queues it for
    /// the writer thread; returns at once either way. `moreComing` (other requests are in flight) queues it
    /// anyway: the writer then gathers the replies that are ready into one `write`, instead of one system
    /// call (and a pipe check) per reply.
    func send(_ body: [UInt8], moreComing: Bool = false) {
        let framing = state.withLock { state -> (any MessageFraming)? in
            guard !moreComing, !state.closed, pipePages > 0, state.queue.isEmpty, !state.writing else { return nil }
            state.writing = true  // held while writing: frames sent meanwhile queue behind this one
            return state.framing ?? NewlineFraming()
        }
        if let framing {
            var frame = body.withUnsafeBytes { framing.frame($0) }
            if pipeHasRoom(for: frame.count) {
                let ok = writeAll(&frame)
                finishedWriting(0, failed: !ok)
                if state.withLock({ !$0.queue.isEmpty }) { wakeWriter.signal() }
                return
            }
        }
        let (startWriter, filled) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            if framing != nil { state.writing = false }  // not written after all: queued, in order
            guard !state.closed else { return (false, nil) }
            let wasFull = state.queuedBytes >= maxQueuedBytes
            state.queue.append(body)
            state.queuedBytes += body.capacity
            defer { state.writerStarted = true }
            return (!state.writerStarted, wasFull || state.queuedBytes < maxQueuedBytes ? nil : state.whenFull)
        }
        if startWriter { startWriterThread() }
        wakeWriter.signal()
        filled?()
    }

    /// Returns once the queue is below its budget (at once when it is).
    func waitForRoom() async {
        guard state.withLock({ $0.queuedBytes >= maxQueuedBytes && !$0.closed }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let hasRoom = state.withLock { state -> Bool in
                if state.queuedBytes < maxQueuedBytes || state.closed { return true }
                state.roomWaiters.append(continuation)
                return false
            }
            if hasRoom { continuation.resume() }
        }
    }

    /// Returns once every queued frame has been written (or dropped, the client gone).
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.isIdle { return true }
                state.drainWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func startWriterThread() {
        if !DedicatedThread.start(name: "movie-rpc stdout", { [self] in writeLoop() }) {
            Log.error("Could not start the thread that writes output")
        }
    }

    private func writeLoop() {
        var gathered: [UInt8] = []
        while true {
            wakeWriter.wait()
            while true {
                let taken = state.withLock { state -> (frames: [[UInt8]], cost: Int, framing: any MessageFraming)? in
                    // A sender writing directly holds `writing`; it wakes this thread when it is done.
                    guard !state.queue.isEmpty, !state.writing else { return nil }
                    var frames: [[UInt8]] = []
                    var bytes = 0
                    var cost = 0
                    while let next = state.queue.first, frames.isEmpty || bytes + next.count <= Self.gatherLimit {
                        _ = state.queue.popFirst()
                        frames.append(next)
                        bytes += next.count
                        cost += next.capacity
                    }
                    state.writing = true
                    return (frames, cost, state.framing ?? NewlineFraming())
                }
                guard let taken else { break }
                gathered.removeAll(keepingCapacity: gathered.capacity <= Self.gatherLimit * 2)
                for frame in taken.frames {
                    frame.withUnsafeBytes { taken.framing.frame($0, into: &gathered) }
                }
                let ok = state.withLock { $0.closed } ? true : writeAll(&gathered)
                finishedWriting(taken.cost, failed: !ok)
            }
        }
    }

    private func writeAll(_ bytes: inout [UInt8]) -> Bool {
        bytes.withUnsafeMutableBytes { all in
            var start = 0
            repeat {
                let end = min(all.count, start + Self.progressChunk)
                guard FileDescriptorWriter.writeAll(fd: fd, UnsafeMutableRawBufferPointer(rebasing: all[start..<end]))
                else { return false }
                writes.add(1, ordering: .relaxed)
                start = end
            } while start < all.count
            return true
        }
    }

    /// Frames that cost `bytes` were written (or failed): releases whoever waits for room or for the end.
    private func finishedWriting(_ bytes: Int, failed: Bool) {
        typealias Waiters = [CheckedContinuation<Void, Never>]
        let (room, drained, hook) = state.withLock { state -> (Waiters, Waiters, (@Sendable () -> Void)?) in
            state.writing = false
            state.queuedBytes -= bytes
            if failed && !state.closed {
                state.closed = true
                // Nothing more will be written: forget the queue, so nobody waits for room that never comes.
                while let dropped = state.queue.popFirst() { state.queuedBytes -= dropped.capacity }
                Log.info("Output closed by the client; further replies are dropped")
            }
            var room: Waiters = []
            var hook: (@Sendable () -> Void)?
            // Released at half the budget, not just under it: a waiter does not wake for every small frame.
            if state.queuedBytes <= maxQueuedBytes / 2 || state.closed {
                swap(&room, &state.roomWaiters)
                swap(&hook, &state.roomHook)
            }
            var drained: Waiters = []
            if state.isIdle { swap(&drained, &state.drainWaiters) }
            return (room, drained, hook)
        }
        hook?()
        for waiter in room + drained { waiter.resume() }
    }
}
