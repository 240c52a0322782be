import Foundation
import Synchronization

/// The protocol output: whole frames written under one lock, so frames from concurrent requests never
/// interleave. After the peer goes away (EPIPE) further frames are dropped quietly.
final class OutputChannel: Sendable {
    private let fd: Int32
    private let state: Mutex<State>

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

    func send(_ body: Data) {
        state.withLock { state in
            guard !state.closed else { return }
            let framing = state.framing ?? NewlineFraming()
            var frame = body.withUnsafeBytes { framing.frame($0) }
            let ok = frame.withUnsafeMutableBytes { FileDescriptorWriter.writeAll(fd: fd, $0) }
            if !ok {
                state.closed = true
                Log.info("Output closed by the client; further replies are dropped")
            }
        }
    }
}
