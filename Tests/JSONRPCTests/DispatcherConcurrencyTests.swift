import Foundation
import Testing
@testable import JSONRPC

@Suite("Cancellation, exactly-once replies, idleness", .tags(.dispatch, .concurrency), .timeLimit(.minutes(10)))
struct DispatcherConcurrencyTests {
    let fixture = DispatcherFixture()

    private func slowRequest(id: String) -> [UInt8] {
        utf8(#"{"jsonrpc":"2.0","id":\#(id),"method":"slow"}"#)
    }

    private func cancel(id: String) -> [UInt8] {
        utf8(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(id)}}"#)
    }

    @Test(arguments: ["7", #""req-7""#])
    func cancelRequestAnswersTheSlowRequestWithCancelled(id: String) async throws {
        let collector = ReplyCollector()
        fixture.dispatcher.receive(slowRequest(id: id), reply: collector.reply)
        await fixture.slowStarted.wait(for: 1)
        fixture.dispatcher.receive(cancel(id: id), reply: collector.reply)
        let reply = try #require(await collector.next())
        let value = try JSONDecoder().decode(JSONValue.self, from: reply)
        #expect(value["id"] == (id == "7" ? 7 : "req-7"))
        #expect(value.errorCode == -32800)
        await fixture.dispatcher.waitUntilIdle()
        #expect(collector.all.count == 1)
        #expect(fixture.slowFinished.count == 1)
    }

    /// A handler that finished its work despite the cancellation answers with its result: the work was
    /// done, and -32800 would tell the client it was not.
    @Test func aHandlerThatFinishesAnywayAnswersWithItsResult() async throws {
        let collector = ReplyCollector()
        fixture.dispatcher.receive(utf8(#"{"jsonrpc":"2.0","id":8,"method":"committing"}"#), reply: collector.reply)
        await fixture.slowStarted.wait(for: 1)
        fixture.dispatcher.receive(cancel(id: "8"), reply: collector.reply)
        await fixture.dispatcher.waitUntilIdle()
        #expect(try collector.values() == [["jsonrpc": "2.0", "id": 8, "result": "committed"]])
    }

    @Test func cancellingOneRequestLeavesTheOthersRunning() async throws {
        let collector = ReplyCollector()
        fixture.dispatcher.receive(slowRequest(id: "1"), reply: collector.reply)
        fixture.dispatcher.receive(slowRequest(id: "2"), reply: collector.reply)
        await fixture.slowStarted.wait(for: 2)
        fixture.dispatcher.receive(cancel(id: "2"), reply: collector.reply)
        // Unknown ids, and ids of the wrong type, are ignored.
        fixture.dispatcher.receive(cancel(id: "99"), reply: collector.reply)
        fixture.dispatcher.receive(cancel(id: #""1""#), reply: collector.reply)
        let first = try JSONDecoder().decode(JSONValue.self, from: try #require(await collector.next()))
        #expect(first["id"] == 2)
        #expect(first.errorCode == -32800)
        fixture.gate.open()
        let second = try JSONDecoder().decode(JSONValue.self, from: try #require(await collector.next()))
        #expect(second == ["jsonrpc": "2.0", "id": 1, "result": "done"])
        await fixture.dispatcher.waitUntilIdle()
        #expect(collector.all.count == 2)
    }

    /// A request started on the reading thread gets its in-flight entry only if it is not answered when it
    /// gives that thread back. Requests answered at once, requests that wait at the gate, and requests whose
    /// answer races with that moment (the gate opens while they are sent) all leave no entry behind, and
    /// each is answered once.
    @Test func answeredRequestsLeaveNoInFlightEntry() async throws {
        let collector = ReplyCollector()
        let count = 400
        let opener = Task.detached { [gate = fixture.gate] in gate.open() }
        for id in 0..<count {
            fixture.dispatcher.receive(slowRequest(id: String(id)), reply: collector.reply)
        }
        await opener.value
        await fixture.dispatcher.waitUntilIdle()
        #expect(collector.all.count == count)
        #expect(fixture.dispatcher.inFlightEntryCount == 0)
    }

    @Test func cancelAfterTheAnswerChangesNothing() async throws {
        let collector = ReplyCollector()
        fixture.gate.open()
        fixture.dispatcher.receive(slowRequest(id: "3"), reply: collector.reply)
        await fixture.dispatcher.waitUntilIdle()
        fixture.dispatcher.receive(cancel(id: "3"), reply: collector.reply)
        await fixture.dispatcher.waitUntilIdle()
        #expect(try collector.values() == [["jsonrpc": "2.0", "id": 3, "result": "done"]])
    }

    @Test func unknownDollarNotificationGetsNoReply() async throws {
        #expect(try await fixture.send(#"{"jsonrpc":"2.0","method":"$/foo","params":{"x":1}}"#).isEmpty)
        #expect(try await fixture.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}"#).isEmpty)
        #expect(try await fixture.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest"}"#).isEmpty)
    }

    @Test func everyRequestIsAnsweredExactlyOnce() async throws {
        let collector = ReplyCollector()
        fixture.gate.open()
        let methods = ["ping", "subtract", "math.add", "movies.details", "broken", "slow", "nope", "get_data"]
        var expected: [JSONValue] = []
        for n in 0..<200 {
            let method = methods[n % methods.count]
            let request = #"{"jsonrpc":"2.0","id":\#(n),"method":"\#(method)"}"#
            fixture.dispatcher.receive(utf8(request), reply: collector.reply)
            fixture.dispatcher.receive(utf8(#"{"jsonrpc":"2.0","method":"\#(method)"}"#), reply: collector.reply)
            expected.append(.int(n))
        }
        await fixture.dispatcher.waitUntilIdle()
        let ids = try collector.values().map { $0["id"] }
        #expect(ids.count == 200)
        #expect(Set(ids.compactMap { $0 }) == Set(expected))
    }

    @Test func batchIsAnsweredOnceWithOneMemberPerRequest() async throws {
        let collector = ReplyCollector()
        fixture.gate.open()
        let members = (0..<20).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"\#($0 % 2 == 0 ? "slow" : "ping")"}"# }
        fixture.dispatcher.receive(utf8("[" + members.joined(separator: ",") + "]"), reply: collector.reply)
        await fixture.dispatcher.waitUntilIdle()
        let replies = try collector.values()
        try #require(replies.count == 1)
        let ids = try #require(replies[0].elements).map { $0["id"] }
        #expect(ids.count == 20)
        #expect(Set(ids.compactMap { $0 }) == Set((0..<20).map { JSONValue.int($0) }))
    }

    /// `waitUntilIdle` called while handlers are still to run returns only after all of them answered.
    @Test func waitUntilIdleWaitsForInFlightRequests() async throws {
        let collector = ReplyCollector()
        for id in 0..<10 { fixture.dispatcher.receive(slowRequest(id: String(id)), reply: collector.reply) }
        await fixture.slowStarted.wait(for: 10)
        #expect(collector.all.isEmpty)
        fixture.gate.open()
        await fixture.dispatcher.waitUntilIdle()
        #expect(fixture.slowFinished.count == 10)
        #expect(collector.all.count == 10)
    }

    @Test func waitUntilIdleReturnsAtOnceWhenNothingRuns() async {
        await fixture.dispatcher.waitUntilIdle()
        await fixture.dispatcher.waitUntilIdle()
    }

    @Test func slowRequestDoesNotHoldUpOthers() async throws {
        let collector = ReplyCollector()
        fixture.dispatcher.receive(slowRequest(id: "1"), reply: collector.reply)
        fixture.dispatcher.receive(utf8(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#), reply: collector.reply)
        let first = try JSONDecoder().decode(JSONValue.self, from: try #require(await collector.next()))
        #expect(first["id"] == 2)
        fixture.gate.open()
        let second = try JSONDecoder().decode(JSONValue.self, from: try #require(await collector.next()))
        #expect(second["id"] == 1)
    }
}
