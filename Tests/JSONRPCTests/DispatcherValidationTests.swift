import Foundation
import Testing
@testable import JSONRPC

@Suite("Message validation and errors", .tags(.dispatch))
struct DispatcherValidationTests {
    let fixture = DispatcherFixture(limits: .init(maxDepth: 8))

    @Test func responseErrorFromAHandlerGoesOutAsIs() async throws {
        let replies = try await fixture.send(#"{"jsonrpc":"2.0","id":"m-1","method":"movies.details"}"#)
        #expect(replies == [[
            "jsonrpc": "2.0", "id": "m-1",
            "error": ["code": -32001, "message": "Movie not found", "data": ["kind": "notFound", "movieId": 42]],
        ]])
        #expect(fixture.mappedErrors.all.isEmpty)
    }

    @Test func arbitraryErrorGoesThroughTheMapperAndItsTextStaysInside() async throws {
        let collector = ReplyCollector()
        fixture.dispatcher.receive(utf8(#"{"jsonrpc":"2.0","id":9,"method":"broken"}"#), reply: collector.reply)
        await fixture.dispatcher.waitUntilIdle()
        #expect(fixture.mappedErrors.all == [TestMethods.SecretError().description])
        let replies = try collector.values()
        #expect(replies == [[
            "jsonrpc": "2.0", "id": 9,
            "error": ["code": -32603, "message": "Internal error", "data": ["kind": "internalError"]],
        ]])
        #expect(collector.texts.allSatisfy { !$0.contains("hunter2") && !$0.contains("SecretError") })
    }

    @Test func invalidUTF8IsAParseError() async throws {
        var bytes = utf8(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"x"}}"#)
        bytes[bytes.count - 4] = 0xFF  // the "x"
        let replies = try await fixture.send(bytes)
        #expect(replies.map(\.errorCode) == [-32700])
        #expect(replies.first?["id"] == .null)
    }

    @Test func tooDeepNestingIsAParseError() async throws {
        // Depth 8 (the fixture's limit) is fine; 9 is not.
        let ok = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[[[[[[1]]]]]]}}"#
        let deep = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[[[[[[[1]]]]]]]}}"#
        #expect(try await fixture.send(ok).first?["result"] == "pong")
        let replies = try await fixture.send(deep)
        #expect(replies.map(\.errorCode) == [-32700])
        #expect(replies.first?["id"] == .null)
        let deepBatch = "[" + String(repeating: "[", count: 8) + String(repeating: "]", count: 8) + "]"
        #expect(try await fixture.send(deepBatch).map(\.errorCode) == [-32700])
    }

    @Test func wrongVersionEchoesTheID() async throws {
        let replies = try await fixture.send(#"{"jsonrpc":"1.0","id":"abc","method":"ping"}"#)
        #expect(replies.map(\.errorCode) == [-32600])
        #expect(replies.first?["id"] == "abc")
        let missing = try await fixture.send(#"{"id":3,"method":"ping"}"#)
        #expect(missing.map(\.errorCode) == [-32600])
        #expect(missing.first?["id"] == 3)
    }

    @Test(arguments: [#"{"a":1}"#, "true", "1.5", "[1]"])
    func idOfTheWrongTypeIsAnsweredWithNull(id: String) async throws {
        let replies = try await fixture.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#)
        #expect(replies.map(\.errorCode) == [-32600])
        #expect(replies.first?["id"] == .null)
    }

    @Test func nullIDIsAnsweredWithNull() async throws {
        let replies = try await fixture.send(#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#)
        #expect(replies == [["jsonrpc": "2.0", "id": nil, "result": "pong"]])
    }

    @Test(arguments: ["1", #""text""#, "null", "true"])
    func scalarMessageIsAnInvalidRequest(message: String) async throws {
        let replies = try await fixture.send(message)
        #expect(replies.map(\.errorCode) == [-32600])
    }

    @Test(arguments: ["", "   ", "nul", "{", #"{"a":1"#, "[1,"])
    func brokenMessageIsAParseError(message: String) async throws {
        let replies = try await fixture.send(message)
        #expect(replies.map(\.errorCode) == [-32700])
        #expect(replies.first?["id"] == .null)
    }

    @Test func responsesFromTheClientAreIgnored() async throws {
        #expect(try await fixture.send(#"{"jsonrpc":"2.0","id":1,"result":"ok"}"#).isEmpty)
        #expect(try await fixture.send(#"{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x"}}"#).isEmpty)
    }

    @Test func framingErrorsAreAnsweredWithNullID() throws {
        let collector = ReplyCollector()
        fixture.dispatcher.receive(framingError: .messageTooLarge(size: 100, limit: 10), reply: collector.reply)
        fixture.dispatcher.receive(
            framingError: .invalidHeader("Missing Content-Length header"), reply: collector.reply)
        let replies = try collector.values()
        try #require(replies.count == 2)
        #expect(replies[0]["id"] == .null)
        #expect(replies[0].errorCode == -32600)
        #expect(replies[0]["error"]?["data"] == ["kind": "messageTooLarge", "limit": 10])
        #expect(replies[1]["id"] == .null)
        #expect(replies[1].errorCode == -32700)
        #expect(replies[1].errorMessage == "Parse error: Missing Content-Length header")
    }
}
