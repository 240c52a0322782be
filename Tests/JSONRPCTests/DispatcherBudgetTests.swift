import Foundation
import Synchronization
import Testing
@testable import JSONRPC

/// Budgets (issue #13 items 7, 8, 12): batch replies, queued input, room in the output, and control
/// messages that never wait behind a backlog.
@Suite("Budgets and control messages", .tags(.dispatch, .concurrency), .timeLimit(.minutes(10)))
struct DispatcherBudgetTests {
    private func slowRequest(id: Int) -> [UInt8] {
        utf8(#"{"jsonrpc":"2.0","id":\#(id),"method":"slow"}"#)
    }

    private func decode(_ data: Data?) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: try #require(data))
    }

    /// A control request is answered while every slot is taken and others wait (they wait on an upstream
    /// that hangs, say); before, it queued behind them.
    @Test func controlRequestIsAnsweredAheadOfAFullQueue() async throws {
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 1))
        let collector = ReplyCollector()
        for id in 1...3 { fixture.dispatcher.receive(slowRequest(id: id), reply: collector.reply) }
        await fixture.slowStarted.wait(for: 1)
        fixture.dispatcher.receive(utf8(#"{"jsonrpc":"2.0","id":9,"method":"control.ping"}"#), reply: collector.reply)
        let first = try decode(await collector.next())
        #expect(first == ["jsonrpc": "2.0", "id": 9, "result": "pong"])
        #expect(fixture.slowStartOrder.all == [.int(1)])
        fixture.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(collector.all.count == 4)
    }

    /// A request cancelled while it waits for a slot is answered at once, not when its turn comes.
    @Test func cancellingAWaitingRequestAnswersItAtOnce() async throws {
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 1))
        let collector = ReplyCollector()
        for id in 1...3 { fixture.dispatcher.receive(slowRequest(id: id), reply: collector.reply) }
        await fixture.slowStarted.wait(for: 1)
        fixture.dispatcher.receive(
            utf8(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":3}}"#), reply: collector.reply)
        let first = try decode(await collector.next())
        #expect(first["id"] == 3)
        #expect(first.errorCode == -32800)
        fixture.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(fixture.slowStartOrder.all == [.int(1), .int(2)])
        #expect(collector.all.count == 3)
    }

    /// Queued input is counted in bytes (with a fixed cost per request), not only in requests.
    @Test func readerWaitsWhenTheQueuedInputBytesAreOverBudget() async throws {
        let budget = 3 * Dispatcher.Limits.requestOverhead
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 1, maxQueuedInputBytes: budget))
        let collector = ReplyCollector()
        for id in 1...2 { fixture.dispatcher.receive(slowRequest(id: id), reply: collector.reply) }
        await fixture.slowStarted.wait(for: 1)
        #expect(fixture.dispatcher.roomToWait() == nil)
        fixture.dispatcher.receive(slowRequest(id: 3), reply: collector.reply)
        #expect(fixture.dispatcher.roomToWait() != nil)
        fixture.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(fixture.dispatcher.roomToWait() == nil)
        #expect(collector.all.count == 3)
    }

    /// While the output has no room, no request starts, control requests included: a client that does not
    /// read holds the work back.
    @Test func requestsWaitForRoomInTheOutput() async throws {
        let fixture = DispatcherFixture()
        let room = GatedRoom()
        fixture.dispatcher.setReplyRoom(room)
        let collector = ReplyCollector()
        fixture.dispatcher.receive(utf8(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), reply: collector.reply)
        fixture.dispatcher.receive(utf8(#"{"jsonrpc":"2.0","id":2,"method":"control.ping"}"#), reply: collector.reply)
        await room.waiters.wait(for: 2)
        #expect(collector.all.isEmpty)
        room.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(collector.all.count == 2)
    }

    /// Control requests have as many slots as the others, and beyond them wait as queued jobs: while the
    /// output has no room, a flood of them costs its queued bytes, not a live task each. (Before, every one
    /// started and waited for the room as a task: 1,800 pipelined `server.info` held 3.7 MB.)
    @Test func controlRequestsBeyondTheirSlotsWaitAsJobs() async throws {
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 2))
        let room = GatedRoom()
        fixture.dispatcher.setReplyRoom(room)
        let collector = ReplyCollector()
        for id in 1...10 {
            fixture.dispatcher.receive(
                utf8(#"{"jsonrpc":"2.0","id":\#(id),"method":"control.ping"}"#), reply: collector.reply)
        }
        #expect(fixture.dispatcher.runningCounts.control == 2)
        await room.waiters.wait(for: 2)
        // One that waits can still be cancelled, and is answered at once.
        fixture.dispatcher.cancel(.int(10))
        let cancelled = try decode(await collector.next())
        #expect(cancelled["id"] == 10 && cancelled.errorCode == -32800)
        room.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(Set(collector.all.compactMap { try? decode($0)["id"] }) == Set((1...10).map { JSONValue.int($0) }))
        #expect(fixture.dispatcher.runningCounts == (0, 0))
    }

    /// A batch whose replies would exceed the budget: the members past it are answered with an error and
    /// not run; every member is answered once. Before, the reply grew without bound.
    @Test func batchReplyStaysWithinItsBudget() async throws {
        let limit = 1000
        let fixture = DispatcherFixture(limits: .init(maxConcurrentRequests: 1, maxBatchReplySize: limit))
        let members = (1...40).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"blob","params":{"count":100}}"# }
        let replies = try await fixture.send("[" + members.joined(separator: ",") + "]")
        guard case .array(let batch) = try #require(replies.first) else {
            Issue.record("expected a batch reply")
            return
        }
        #expect(Set(batch.compactMap { $0["id"] }) == Set((1...40).map { JSONValue.int($0) }))
        let results = batch.filter { $0["result"] != nil }
        let refused = batch.filter { $0["error"] != nil }
        #expect(results.count >= 1 && results.count < limit / 100)
        #expect(refused.count == 40 - results.count)
        for error in refused {
            #expect(error["error"]?["data"]?["kind"] == "replyTooLarge")
        }
        // One at a time: at most the member that crossed the limit ran; those after it did not.
        #expect(refused.filter { $0["error"]?["data"]?["ran"] == true }.count <= 1)
        #expect(refused.filter { $0["error"]?["data"]?["ran"] == false }.count >= refused.count - 1)
        let raw = try #require(await fixture.lastRawBatch(members))
        #expect(raw.count <= limit + 300 * refused.count)
    }

    /// A result too large for what is left of the budget is replaced by an error saying it ran.
    @Test func aResultPastTheBudgetIsReplacedAndSaysItRan() throws {
        var budget = BatchReplyBudget(limit: 1000, answered: [])
        let result = [UInt8](repeating: UInt8(ascii: "a"), count: 600)
        budget.add(result, isError: false, id: .int(1))
        #expect(!budget.isExhausted)
        budget.add(result, isError: false, id: .int(2))
        #expect(budget.isExhausted)
        let replaced = try JSONDecoder().decode(JSONValue.self, from: Data(budget.parts[1]))
        #expect(replaced["id"] == 2)
        #expect(replaced["error"]?["data"]?["kind"] == "replyTooLarge")
        #expect(replaced["error"]?["data"]?["ran"] == true)
        // An error past the limit is kept as it is; so is every later one.
        let error = Array(#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"m"}}"#.utf8)
        budget.add(error, isError: true, id: .int(3))
        #expect(budget.parts[2] == error)
        // A result that still fits is kept; one that does not is replaced: results never go past it.
        budget.add(Array("1".utf8), isError: false, id: .int(4))
        #expect(budget.parts[3] == Array("1".utf8))
        let tooLong = [UInt8](repeating: UInt8(ascii: "b"), count: 1000 - budget.size)  // its comma does not fit
        budget.add(tooLong, isError: false, id: .int(5))
        #expect(budget.parts[4] != tooLong)
        #expect(budget.parts.count == 5)
    }
}

/// An output whose room the test opens by hand.
final class GatedRoom: ReplyRoom {
    let gate = Gate()
    let waiters = EventCounter()

    /// Always asked to wait: `waitForRoom` returns at once once the gate is open.
    var isFull: Bool { true }

    func waitForRoom() async {
        waiters.record()
        await gate.wait()
    }
}

extension DispatcherFixture {
    /// The bytes of the reply to one batch of `members`, sent again on a fresh collector.
    func lastRawBatch(_ members: [String]) async -> Data? {
        let collector = ReplyCollector()
        dispatcher.receive(utf8("[" + members.joined(separator: ",") + "]"), reply: collector.reply)
        await dispatcher.waitUntilIdle()
        return collector.all.first
    }
}
