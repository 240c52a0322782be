import Foundation
import Synchronization

/// The protocol output: whole frames written under one lock, so frames from concurrent requests never
/// interleave. After the peer goes away (EPIPE) further frames are dropped quietly.
final class OutputChannel: Sendable {
    private let fd: Int32
    private let state: Mutex<State>
    /// When the write in progress started (`DispatchTime` nanoseconds), 0 when none is.
    private let writeStartedAt = Atomic<UInt64>(0)

    private struct State {
        var framing: (any MessageFraming)?
        var closed = false
    }

    init(fd: Int32) {
        self.fd = fd
        self.state = Mutex(State())
    }

    /// Set once the input's framing is known; replies use the same framing.
    func setFraming(_ framing: any MessageFraming) {
        state.withLock { $0.framing = framing }
    }

    var framingName: String? { state.withLock { $0.framing?.name } }

    /// Whether a write has been blocked for longer than `nanoseconds`: the client is not reading replies.
    func isStalled(longerThan nanoseconds: UInt64) -> Bool {
        let started = writeStartedAt.load(ordering: .relaxed)
        return started != 0 && DispatchTime.now().uptimeNanoseconds - started > nanoseconds
    }

    func send(_ body: Data) {
        state.withLock { state in
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
}
