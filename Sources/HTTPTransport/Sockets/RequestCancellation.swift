#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Lets a task's cancellation handler stop the thread doing that request's I/O.
///
/// Every wait of the request polls ``wakeFileDescriptor`` besides its socket; ``cancel()`` writes a byte to the
/// other end of that pipe, so the wait ends at once whatever it waits for (connect, handshake, read, write).
/// The pipe is closed by ``finish()`` under the same lock that ``cancel()`` writes under, so a late
/// cancellation never writes to a descriptor number that may already belong to something else.
final class RequestCancellation: Sendable {
    private struct State {
        var isCancelled = false
        var isFinished = false
    }

    private let state = Mutex(State())
    /// The end the I/O thread polls (readable once cancelled).
    let wakeFileDescriptor: Int32
    private let signalFileDescriptor: Int32

    /// - Throws: `HTTPTransportError.Code.cannotConnectToHost` when the process is out of file descriptors.
    init() throws(HTTPTransportError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HTTPTransportError(.cannotConnectToHost) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wakeFileDescriptor = ends[0]
        signalFileDescriptor = ends[1]
    }

    /// Marks the request cancelled and wakes its I/O thread. Safe from any thread, at any time, repeatedly.
    func cancel() {
        state.withLock { state in
            guard !state.isCancelled else { return }
            state.isCancelled = true
            guard !state.isFinished else { return }
            var byte: UInt8 = 1
            _ = write(signalFileDescriptor, &byte, 1)
        }
    }

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Throws `CancellationError` once the request was cancelled.
    func check() throws(CancellationError) {
        if isCancelled { throw CancellationError() }
    }

    /// Called once by the I/O thread when the request is over: closes the pipe.
    func finish() {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.isFinished = true
            close(wakeFileDescriptor)
            close(signalFileDescriptor)
        }
    }
}
