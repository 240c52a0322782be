import Foundation
import Synchronization
import Testing
@testable import JSONRPC

@Suite("Bounded concurrency", .tags(.dispatch, .concurrency), .timeLimit(.minutes(10)))
struct DispatcherQueueTests {
    private func slowRequest(id: Int) -> [UInt8] {
        utf8(#"{"jsonrpc":"2.0","id":\#(id),"method":"slow"}"#)
    }

    private func cancel(id: Int) -> [UInt8] {
        utf8(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(id)}}"#)
    }

    private func decode(_ data: Data?) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: try #require(data))
    }

    @Test func limitIsAtLeastOne() {
        #expect(Dispatcher.Limits(maxConcurrentRequests: 0).maxConcurrentRequests == 1)
        #expect(Dispatcher.Limits(maxConcurrentRequests: -5).maxConcurrentRequests == 1)
        #expect(Dispatcher.Limits().maxConcurrentRequests == 64)
    }

    /// With two slots, five parked requests start two at a time, in arrival order, as slots free up.
    @Test func requestsBeyondTheLimitWaitInArrivalOrder() async throws {
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 2))
        let collector = ReplyCollector()
        for id in 1...5 { fixture.dispatcher.receive(slowRequest(id: id), reply: collector.reply) }
        await fixture.slowStarted.wait(for: 2)
        #expect(fixture.slowStartOrder.all == [.int(1), .int(2)])

        fixture.dispatcher.receive(cancel(id: 1), reply: collector.reply)
        let first = try decode(await collector.next())
        #expect(first["id"] == 1)
        #expect(first.errorCode == -32800)
        await fixture.slowStarted.wait(for: 3)
        #expect(fixture.slowStartOrder.all == [.int(1), .int(2), .int(3)])

        fixture.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(fixture.slowStartOrder.all == (1...5).map { .int($0) })
        #expect(fixture.slowConcurrency.peak == 2)
        let replies = try collector.values()
        #expect(replies.count == 5)
        #expect(replies.filter { $0["result"] == "done" }.count == 4)
    }

    /// A request cancelled while it waits for a slot answers -32800 without its handler ever running.
    @Test func cancelWhileQueuedSkipsTheHandler() async throws {
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 1))
        let collector = ReplyCollector()
        fixture.dispatcher.receive(slowRequest(id: 1), reply: collector.reply)
        fixture.dispatcher.receive(slowRequest(id: 2), reply: collector.reply)
        await fixture.slowStarted.wait(for: 1)
        fixture.dispatcher.receive(cancel(id: 2), reply: collector.reply)
        fixture.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(fixture.slowStartOrder.all == [.int(1)])
        let replies = try collector.values()
        #expect(replies.count == 2)
        #expect(replies.first { $0["id"] == 1 }?["result"] == "done")
        #expect(replies.first { $0["id"] == 2 }?.errorCode == -32800)
    }

    /// Waiting requests count as in flight: idleness comes only after the queue has drained.
    @Test func waitUntilIdleCoversQueuedRequests() async throws {
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 1))
        let collector = ReplyCollector()
        for id in 1...4 { fixture.dispatcher.receive(slowRequest(id: id), reply: collector.reply) }
        fixture.dispatcher.receive(utf8(#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#), reply: collector.reply)
        fixture.dispatcher.receive(utf8(#"[{"jsonrpc":"2.0","id":6,"method":"ping"}]"#), reply: collector.reply)
        await fixture.slowStarted.wait(for: 1)
        fixture.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(collector.all.count == 6)
        #expect(fixture.slowConcurrency.peak == 1)
    }
}

@Suite("FIFO queue")
struct FIFOQueueTests {
    @Test func popsInPushOrderAcrossCompaction() {
        var queue = FIFOQueue<Int>()
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
        var expected = 0
        for value in 0..<5000 {
            queue.append(value)
            if value % 3 == 0, let first = queue.popFirst() {
                #expect(first == expected)
                expected += 1
            }
        }
        #expect(queue.count == 5000 - expected)
        while let first = queue.popFirst() {
            #expect(first == expected)
            expected += 1
        }
        #expect(expected == 5000)
        #expect(queue.isEmpty && queue.count == 0)
        queue.append(7)
        #expect(queue.popFirst() == 7)
    }
}

extension DispatcherQueueTests {
    /// The reading thread is held while the backlog is full and released once half of it has started.
    @Test func readerWaitsForRoomWhileTheBacklogIsFull() async throws {
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 1, maxWaitingRequests: 4))
        let collector = ReplyCollector()
        for id in 1...5 { fixture.dispatcher.receive(slowRequest(id: id), reply: collector.reply) }
        await fixture.slowStarted.wait(for: 1)  // 1 running, 4 waiting: full.

        let room = try #require(fixture.dispatcher.roomToWait())
        let released = OneShotSignal()
        let hasReturned = Atomic<Bool>(false)
        let reader = Thread {
            room.wait()
            hasReturned.store(true, ordering: .sequentiallyConsistent)
            released.fire()
        }
        reader.start()
        // Still parked when one waiting request has started (3 waiting > 4 / 2) ...
        fixture.dispatcher.receive(cancel(id: 1), reply: collector.reply)
        await fixture.slowStarted.wait(for: 2)
        let returnedEarly = hasReturned.load(ordering: .sequentiallyConsistent)
        #expect(!returnedEarly)
        // ... and released when the second one starts (2 waiting).
        fixture.dispatcher.receive(cancel(id: 2), reply: collector.reply)
        await released.wait()
        fixture.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(collector.all.count == 5)
    }

    /// Below the limit the reader is never held.
    @Test func readerIsNotHeldBelowTheLimit() async {
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 1, maxWaitingRequests: 4))
        let collector = ReplyCollector()
        for id in 1...4 { fixture.dispatcher.receive(slowRequest(id: id), reply: collector.reply) }
        await fixture.slowStarted.wait(for: 1)  // 1 running, 3 waiting.
        #expect(fixture.dispatcher.roomToWait() == nil)
        fixture.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(collector.all.count == 4)
    }
}
