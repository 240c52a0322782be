import Synchronization
import Testing

@testable import MovieCore

@Suite("Shared read")
struct SharedReadTests {
    /// Reads that count themselves; each read waits for `gate` to let it finish.
    private final class CountingRead: Sendable {
        let reads = Mutex(0)
        let gate: AsyncStream<Void>
        let open: AsyncStream<Void>.Continuation
        let started: AsyncStream<Int>
        let start: AsyncStream<Int>.Continuation

        init() {
            (gate, open) = AsyncStream<Void>.makeStream(bufferingPolicy: .unbounded)
            (started, start) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
        }

        func read() async -> Int {
            let number = reads.withLock { reads in
                reads += 1
                return reads
            }
            start.yield(number)
            for await _ in gate { break }
            return number
        }
    }

    @Test("a caller arriving during a read gets the next read, which then serves every caller waiting")
    func latecomersWaitForTheNextRead() async throws {
        let counting = CountingRead()
        let shared = SharedRead { await counting.read() }
        var started = counting.started.makeAsyncIterator()
        let first = Task { try await shared.value() }
        #expect(await started.next() == 1)
        let late = (0..<5).map { _ in Task { try await shared.value() } }
        while shared.waitingCount < late.count { await Task.yield() }
        counting.open.yield()
        #expect(try await first.value == 1)
        #expect(await started.next() == 2)
        counting.open.yield()
        for task in late {
            #expect(try await task.value == 2, "a read under way when it arrived is never taken")
        }
        #expect(counting.reads.withLock { $0 } == 2, "one read served all five")
    }

    @Test("a failed read fails its callers, and the next caller reads again")
    func failuresAreNotKept() async throws {
        struct Failure: Error {}
        let calls = Mutex(0)
        let shared = SharedRead { () async throws -> Int in
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            if call == 1 { throw Failure() }
            return call
        }
        await #expect(throws: Failure.self) { try await shared.value() }
        #expect(try await shared.value() == 2)
    }
}
