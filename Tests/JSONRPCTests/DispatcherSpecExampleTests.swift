import Testing
@testable import JSONRPC

/// The examples of the JSON-RPC 2.0 specification, section 7, adapted to by-name params: a method whose
/// params are named answers positional params with -32602.
@Suite("JSON-RPC 2.0 specification examples", .tags(.dispatch, .specExamples))
struct DispatcherSpecExampleTests {
    let fixture = DispatcherFixture()

    @Test func positionalParamsAreInvalidForByNameMethods() async throws {
        let replies = try await fixture.send(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#)
        try #require(replies.count == 1)
        #expect(replies[0]["id"] == 1)
        #expect(replies[0].errorCode == -32602)
        #expect(replies[0]["result"] == nil)
    }

    @Test func namedParams() async throws {
        let first = try await fixture.send(
            #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#)
        #expect(first == [["jsonrpc": "2.0", "result": 19, "id": 3]])
        let second = try await fixture.send(
            #"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#)
        #expect(second == [["jsonrpc": "2.0", "result": 19, "id": 4]])
    }

    @Test func notificationsGetNoReply() async throws {
        #expect(try await fixture.send(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#).isEmpty)
        #expect(try await fixture.send(#"{"jsonrpc": "2.0", "method": "foobar"}"#).isEmpty)
        // A known method sent as a notification runs, but its result is not sent.
        let subtract = #"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 1, "subtrahend": 1}}"#
        #expect(try await fixture.send(subtract).isEmpty)
        #expect(try await fixture.send(#"{"jsonrpc": "2.0", "method": "broken"}"#).isEmpty)
        #expect(try await fixture.send(#"{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}"#).isEmpty)
        #expect(fixture.helloNotifications.count == 1)
    }

    @Test func unknownMethodEchoesStringAndIntegerIDs() async throws {
        let byString = try await fixture.send(#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#)
        try #require(byString.count == 1)
        #expect(byString[0]["id"] == "1")
        #expect(byString[0].errorCode == -32601)
        #expect(byString[0]["error"]?["data"]?["method"] == "foobar")

        let byInt = try await fixture.send(#"{"jsonrpc": "2.0", "method": "foobar", "id": 77}"#)
        try #require(byInt.count == 1)
        #expect(byInt[0]["id"] == 77)
        #expect(byInt[0].errorCode == -32601)
    }

    @Test func invalidJSON() async throws {
        let replies = try await fixture.send(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#)
        #expect(replies.count == 1)
        #expect(replies.first?["id"] == .null)
        #expect(replies.first?.errorCode == -32700)
    }

    @Test func invalidRequestObject() async throws {
        let replies = try await fixture.send(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#)
        #expect(replies.count == 1)
        #expect(replies.first?["id"] == .null)
        #expect(replies.first?.errorCode == -32600)
    }

    @Test func batchWithInvalidJSONGetsOneParseError() async throws {
        let replies = try await fixture.send("""
            [
              {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
              {"jsonrpc": "2.0", "method"
            ]
            """)
        #expect(replies.count == 1)
        #expect(replies.first?.elements == nil, "a single object, not an array")
        #expect(replies.first?["id"] == .null)
        #expect(replies.first?.errorCode == -32700)
    }

    @Test func balancedButInvalidBatchIsStillAParseError() async throws {
        let replies = try await fixture.send(#"[{"jsonrpc":"2.0","method":"ping","id":1}, {"a":}]"#)
        #expect(replies.count == 1)
        #expect(replies.first?.errorCode == -32700)
    }

    @Test func emptyBatchGetsOneInvalidRequest() async throws {
        let replies = try await fixture.send("[]")
        #expect(replies.count == 1)
        #expect(replies.first?.elements == nil, "a single object, not an array")
        #expect(replies.first?["id"] == .null)
        #expect(replies.first?.errorCode == -32600)
    }

    @Test func batchOfOneNonObject() async throws {
        let replies = try await fixture.send("[1]")
        try #require(replies.count == 1)
        let members = try #require(replies[0].elements)
        #expect(members.count == 1)
        #expect(members.first?["id"] == .null)
        #expect(members.first?.errorCode == -32600)
    }

    @Test func batchOfThreeNonObjects() async throws {
        let replies = try await fixture.send("[1,2,3]")
        try #require(replies.count == 1)
        let members = try #require(replies[0].elements)
        #expect(members.count == 3)
        #expect(members.allSatisfy { $0.errorCode == -32600 && $0["id"] == .null })
    }

    @Test func mixedBatch() async throws {
        let replies = try await fixture.send("""
            [
              {"jsonrpc": "2.0", "method": "sum", "params": {"values": [1,2,4]}, "id": "1"},
              {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
              {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
              {"foo": "boo"},
              {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
              {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
            ]
            """)
        try #require(replies.count == 1)
        let members = try #require(replies[0].elements)
        #expect(members.count == 5)
        func member(id: JSONValue) -> [JSONValue] { members.filter { $0["id"] == id } }
        #expect(member(id: "1") == [["jsonrpc": "2.0", "result": 7, "id": "1"]])
        #expect(member(id: "2").map(\.errorCode) == [-32602])
        #expect(member(id: .null).map(\.errorCode) == [-32600])
        #expect(member(id: "5").map(\.errorCode) == [-32601])
        #expect(member(id: "9") == [["jsonrpc": "2.0", "result": ["hello", 5], "id": "9"]])
        #expect(fixture.helloNotifications.count == 1)
    }

    @Test func batchOfNotificationsGetsNoReplyAtAll() async throws {
        let replies = try await fixture.send("""
            [
              {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
              {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
              {"jsonrpc": "2.0", "method": "ping"}
            ]
            """)
        #expect(replies.isEmpty)
        #expect(fixture.helloNotifications.count == 1)
    }
}
