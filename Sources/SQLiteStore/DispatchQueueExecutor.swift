import Dispatch

/// A serial executor that runs its jobs on a serial dispatch queue of its own.
///
/// An actor whose `unownedExecutor` is one of these runs its methods on the queue's thread, never on one
/// of Swift's few cooperative threads: a method may block (in `sqlite3_step`, a busy wait, a long scan)
/// without starving the tasks that have nothing to do with it (GRDB's `DispatchQueueActor`).
final class DispatchQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
