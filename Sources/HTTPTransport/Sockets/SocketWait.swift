#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Waits with `poll(2)` until a socket is ready, the request is cancelled, or its deadline passes.
enum SocketWait {
    enum Readiness {
        case readable
        case writable

        var events: Int16 { self == .readable ? Int16(POLLIN) : Int16(POLLOUT) }
    }

    /// Returns when `socket` is ready for `readiness` (or has an error or hang-up the next call will report).
    /// - Throws: `CancellationError`, or `HTTPTransportError.Code.timedOut` when the deadline passes first.
    static func wait(
        for readiness: Readiness, on socket: Int32, deadline: Deadline, cancellation: RequestCancellation
    ) throws {
        while true {
            try cancellation.check()
            let timeout = try deadline.remainingMilliseconds()
            var descriptors = [
                pollfd(fd: socket, events: readiness.events, revents: 0),
                pollfd(fd: cancellation.wakeFileDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 {
                guard errno == EINTR else { throw HTTPTransportError(.networkConnectionLost) }
                continue
            }
            try cancellation.check()
            if descriptors[0].revents != 0 { return }
            // A timeout: the loop asks the deadline again, which throws once it has really passed.
        }
    }

    /// Whether an idle socket shows nothing to read and no hang-up: a server that closed it, or sent bytes
    /// nobody asked for, makes it unfit for another request.
    static func isQuiet(_ socket: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }
}
