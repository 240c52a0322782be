import Synchronization
import Testing

@testable import HTTPTransport

@Suite(.timeLimit(.minutes(10)))
struct OriginConnectionLimitTests {
    private let origin = HTTPOrigin(scheme: .https, host: "api.themoviedb.org", port: 443)
    private let other = HTTPOrigin(scheme: .https, host: "image.tmdb.org", port: 443)

    /// Bodies that park until the test lets them go, one at a time.
    private final class Parking: Sendable {
        private let parked = Mutex<[CheckedContinuation<Void, Never>]>([])
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()

        func park() async {
            await withCheckedContinuation { continuation in
                parked.withLock { $0.append(continuation) }
                arrived.yield()
            }
        }

        func releaseOne() {
            let next = parked.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            next?.resume()
        }
    }

    private func waitUntil(_ limit: OriginConnectionLimit, _ origin: HTTPOrigin, waiting: Int) async {
        while limit.counts(for: origin).waiting != waiting { await Task.yield() }
    }

    @Test func beyondTheLimitExchangesWaitAndStartAsSlotsFree() async throws {
        let limit = OriginConnectionLimit(limit: 2)
        let parking = Parking()
        var arrivals = parking.arrivals.makeAsyncIterator()
        let tasks = (0..<4).map { _ in Task { try await limit.withSlot(for: origin) { await parking.park() } } }
        _ = await arrivals.next()
        _ = await arrivals.next()
        await waitUntil(limit, origin, waiting: 2)
        #expect(limit.counts(for: origin) == (inUse: 2, waiting: 2))
        // Another origin has slots of its own.
        try await limit.withSlot(for: other) {}

        parking.releaseOne()
        _ = await arrivals.next()  // the slot went to a waiter
        #expect(limit.counts(for: origin) == (inUse: 2, waiting: 1))
        for _ in 0..<3 { parking.releaseOne() }
        _ = await arrivals.next()
        parking.releaseOne()
        for task in tasks { try await task.value }
        #expect(limit.counts(for: origin) == (inUse: 0, waiting: 0))
    }

    @Test func aCancelledWaiterLeavesTheLineAndTheOthersGoOn() async throws {
        let limit = OriginConnectionLimit(limit: 1)
        let parking = Parking()
        var arrivals = parking.arrivals.makeAsyncIterator()
        let holder = Task { try await limit.withSlot(for: origin) { await parking.park() } }
        _ = await arrivals.next()
        let cancelled = Task { try await limit.withSlot(for: origin) { Issue.record("a cancelled waiter ran") } }
        let next = Task { try await limit.withSlot(for: origin) { await parking.park() } }
        await waitUntil(limit, origin, waiting: 2)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(limit.counts(for: origin) == (inUse: 1, waiting: 1))
        parking.releaseOne()
        _ = await arrivals.next()  // `next` got the slot
        parking.releaseOne()
        try await holder.value
        try await next.value
        #expect(limit.counts(for: origin) == (inUse: 0, waiting: 0))
    }

    @Test func aTaskCancelledBeforeItAsksNeverTakesASlot() async throws {
        let limit = OriginConnectionLimit(limit: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await limit.withSlot(for: origin) { Issue.record("ran although cancelled") }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(limit.counts(for: origin) == (inUse: 0, waiting: 0))
    }
}
