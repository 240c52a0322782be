#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import JSONRPC
import MovieRPC
import Synchronization

/// Ending the process cleanly, from whichever thread asks: a signal, the LSP `exit` notification, or the
/// end of input. Stored writes are flushed first.
///
/// Deliberately not main-actor code: a signal is delivered on a thread of its own and the `exit`
/// notification on the reading thread, and a closure written in main.swift would carry main-actor isolation that the
/// runtime checks (and traps on) when it runs elsewhere.
enum ProcessExit {
    /// Set by the first caller; `exit` must not run on two threads at once (its handlers would race).
    private static let started = Atomic(false)

    /// Flushes the domain's pending writes in a task, then exits with `status`; returns at once.
    ///
    /// Nothing here blocks the calling thread: the reading thread must go on answering while the flush
    /// runs, and a caller on one of Swift's cooperative threads, waiting there, could starve the very task
    /// that flushes. A second caller (a signal during the end of input, say) is ignored.
    static func finish(_ server: MovieServer, status: Int32) {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        Task.detached {
            await server.close()
            exit(status)
        }
    }

    /// The end of input: flushes and exits, unless another path is already doing so.
    static func finishAtEndOfInput(_ server: MovieServer) async -> Never {
        finish(server, status: 0)
        while true {
            try? await Task.sleep(for: .seconds(3600))
        }
    }
}

/// SIGTERM, SIGINT and SIGHUP (the terminal or editor that started us went away) end the process through
/// `ProcessExit`, which flushes the event buffer first.
///
/// `install()` sets the handlers with `signal(2)`, which takes effect before it returns; each handler only
/// writes the signal's number to a pipe (async-signal-safe), and a thread reading that pipe does the rest.
/// Dispatch signal sources, used before, registered asynchronously after `resume()` while the disposition
/// was already `SIG_IGN`: a signal sent right after the first answer was lost, and the server never exited
/// (6 to 18 times in 100).
enum TerminationSignals {
    /// Installs the handlers. A signal that arrives before `deliver(to:)` waits in the pipe.
    static func install() {
        // Made here, before any handler can run: a handler must never be the first to touch it.
        guard pipeEnds.write >= 0 else { return }  // no pipe: the default action (termination) stays
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
            signal(signalNumber) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(TerminationSignals.pipeEnds.write, &byte, 1)
            }
        }
    }

    /// From a thread of its own, ends the process through `ProcessExit` at the first signal.
    static func deliver(to server: MovieServer) {
        guard pipeEnds.read >= 0 else { return }
        // A thread of its own: it waits in read(2) for the life of the process, never on one of Swift's
        // cooperative threads. Not a Dispatch queue: the first Dispatch work of the process also starts
        // Dispatch's worker and event threads, which then stood between exec and the first answer.
        let started = DedicatedThread.start(name: "movie-rpc signal") {
            var byte: UInt8 = 0
            while read(pipeEnds.read, &byte, 1) != 1 {
                guard errno == EINTR else { return }
            }
            Log.info("Signal \(byte): exiting")
            ProcessExit.finish(server, status: 0)
        }
        // No thread (a process limit): with the handlers left in place nobody would read the pipe, and the
        // signals would be ignored; the default action (termination) at least ends the process.
        if !started {
            for signalNumber in [SIGTERM, SIGINT, SIGHUP] { signal(signalNumber, SIG_DFL) }
        }
    }

    /// The pipe from the handlers to the delivering thread; (-1, -1) when none could be made.
    private static let pipeEnds: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A handler never blocks: with the pipe full, one byte already waits to be read, which is enough.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        return (ends[0], ends[1])
    }()
}
