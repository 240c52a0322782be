import Foundation
import Synchronization

/// The protocol output: whole frames written under one lock, so frames from concurrent requests never
/// interleave. After the peer goes away (EPIPE) further frames are dropped quietly.
///
/// The reading thread never blocks here: a reply it produces (an inline method's) is written at once only
/// when it is small, the lock is free and the pipe has room; otherwise a serial queue writes it, so the
/// reading thread goes on reading even when the client is not reading replies.
final class OutputChannel: Sendable {
    private let fd: Int32
    private let readingThread: ReadingThreadExecutor?
    private let deferredWrites = DispatchQueue(label: "movie-rpc stdout")
    private let state: Mutex<State>
    /// When the write in progress started (`DispatchTime` nanoseconds), 0 when none is.
    private let writeStartedAt = Atomic<UInt64>(0)

    private struct State {
        var framing: (any MessageFraming)?
        var closed = false
    }

    init(fd: Int32, readingThread: ReadingThreadExecutor? = nil) {
        self.fd = fd
        self.readingThread = readingThread
        self.state = Mutex(State())
    }

    /// Replies handed to `deferredWrites` and not yet written, and the reading thread when it waits for
    /// them to drain (see `waitForDeferredRoom`).
    private let deferred = Mutex<(count: Int, waiter: DispatchSemaphore?)>((0, nil))
    /// Deferred replies at which the reading thread stops reading until half of them are written.
    static let maxDeferredReplies = 256

    /// The framing's name apart from `state`, whose lock a blocked write holds: reading it must never wait.
    private let framingNameStorage = Mutex<String?>(nil)

    /// Set once the input's framing is known; replies use the same framing.
    func setFraming(_ framing: any MessageFraming) {
        state.withLock { $0.framing = framing }
        framingNameStorage.withLock { $0 = framing.name }
    }

    var framingName: String? { framingNameStorage.withLock { $0 } }

    /// Whether a write has been blocked for longer than `nanoseconds`: the client is not reading replies.
    func isStalled(longerThan nanoseconds: UInt64) -> Bool {
        let started = writeStartedAt.load(ordering: .relaxed)
        return started != 0 && DispatchTime.now().uptimeNanoseconds - started > nanoseconds
    }

    func send(_ body: Data) {
        if let readingThread, readingThread.isCurrentThread {
            // A pipe with room takes a write of up to PIPE_BUF bytes without blocking.
            if body.count + 64 <= Int(PIPE_BUF), hasRoom(),
                state.withLockIfAvailable({ write(body, &$0) }) != nil
            {
                return
            }
            deferred.withLock { $0.count += 1 }
            deferredWrites.async {
                self.send(body)
                let waiter = self.deferred.withLock { deferred -> DispatchSemaphore? in
                    deferred.count -= 1
                    guard deferred.count <= Self.maxDeferredReplies / 2 else { return nil }
                    defer { deferred.waiter = nil }
                    return deferred.waiter
                }
                waiter?.signal()
            }
            return
        }
        state.withLock { write(body, &$0) }
    }

    /// Waits up to `timeout` while `maxDeferredReplies` or more replies wait to be written; true when there
    /// is room. Reading thread only.
    func waitForDeferredRoom(timeout: DispatchTimeInterval) -> Bool {
        let semaphore = deferred.withLock { deferred -> DispatchSemaphore? in
            guard deferred.count >= Self.maxDeferredReplies else { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            deferred.waiter = semaphore
            return semaphore
        }
        guard let semaphore else { return true }
        return semaphore.wait(timeout: .now() + timeout) == .success
    }

    /// Returns once every reply handed to the serial queue has been written (or dropped, the client gone).
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            deferredWrites.async { continuation.resume() }
        }
    }

    /// Whether the output has room for a small write now (`poll` with `POLLOUT`, no waiting).
    private func hasRoom() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLOUT) != 0
    }

    private func write(_ body: Data, _ state: inout State) {
        guard !state.closed else { return }
        let framing = state.framing ?? NewlineFraming()
        var frame = body.withUnsafeBytes { framing.frame($0) }
        writeStartedAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        let ok = frame.withUnsafeMutableBytes { FileDescriptorWriter.writeAll(fd: fd, $0) }
        writeStartedAt.store(0, ordering: .relaxed)
        if !ok {
            state.closed = true
            Log.info("Output closed by the client; further replies are dropped")
        }
    }
}
