import Glibc
import Synchronization

/// Runs requests of methods that answer inline (``RPCMethod/answersInline``) on the connection's reading
/// thread, right after it has read them and before it reads again.
///
/// Why: such a request costs a few microseconds, but handing it to another thread costs a wake-up of that
/// thread, which on an idle machine (a halted virtual CPU) takes longer than the request itself. Jobs
/// enqueued from any other thread go to the global concurrent executor as usual, so a task that does
/// suspend continues elsewhere and the reading thread never waits for it.
final class ReadingThreadExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    /// `pthread_self()` of the reading thread; 0 before it binds.
    private let readingThread = Atomic<UInt>(0)

    /// Called by the reading thread before it starts reading.
    func bindToCurrentThread() {
        readingThread.store(UInt(pthread_self()), ordering: .releasing)
    }

    /// Whether the caller is the reading thread.
    var isCurrentThread: Bool {
        readingThread.load(ordering: .acquiring) == UInt(pthread_self())
    }

    func enqueue(_ job: consuming ExecutorJob) {
        if isCurrentThread {
            let unownedJob = UnownedJob(job)
            jobs.withLock { $0.append(unownedJob) }
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }

    /// Runs every job enqueued by the reading thread, including those the jobs enqueue. Reading thread only.
    func runPendingJobs() {
        while true {
            let batch = jobs.withLock { jobs -> [UnownedJob] in
                defer { jobs = [] }
                return jobs
            }
            if batch.isEmpty { return }
            for job in batch {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
}
