import Dispatch
import Foundation
import JSONRPC
import MovieRPC
import Synchronization

/// Ending the process cleanly, from whichever thread asks: a signal, the LSP `exit` notification, or the
/// end of input. Stored writes are flushed first.
///
/// Deliberately not main-actor code: signal handlers run on a Dispatch queue and the `exit` notification
/// on the reading thread, and a closure written in main.swift would carry main-actor isolation that the
/// runtime checks (and traps on) when it runs elsewhere.
enum ProcessExit {
    /// Set by the first caller; `exit` must not run on two threads at once (its handlers would race).
    private static let started = Atomic(false)

    /// Flushes the domain's pending writes in a task, then exits with `status`; returns at once.
    ///
    /// Nothing here blocks the calling thread: a signal handler runs on a Dispatch worker, and on Linux
    /// Swift's tasks run on those same workers, so waiting there for the flush could starve the very task
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

/// SIGTERM and SIGINT end the process through `ProcessExit`. Keep the instance alive for the process's
/// lifetime: the signal sources stop with it.
final class SignalHandlers {
    private let sources: [any DispatchSourceSignal]

    init(server: MovieServer) {
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)  // Delivered to the source below instead of killing the process.
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                Log.info("Signal \(signalNumber): exiting")
                ProcessExit.finish(server, status: 0)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }
}
