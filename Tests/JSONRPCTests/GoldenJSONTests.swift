import Foundation
import Testing
@testable import JSONRPC

/// Replies compared byte for byte: the envelope in a fixed order (`jsonrpc`, `id`, then `result` or
/// `error`), everything inside it with sorted keys and unescaped slashes.
@Suite("Golden JSON", .tags(.golden))
struct GoldenJSONTests {
    private func text(_ bytes: some Sequence<UInt8>) -> String { String(decoding: Array(bytes), as: UTF8.self) }

    private struct Unsorted: Encodable {
        var zeta = 1
        var alpha = "a/b"
        var middle: [String: Int] = ["y": 2, "b": 1]
        var absent: String? = nil
    }

    @Test func resultsEncodeWithSortedKeys() throws {
        #expect(text(try ResultEncoding.encode(Unsorted())) == #"{"alpha":"a/b","middle":{"b":1,"y":2},"zeta":1}"#)
        #expect(text(try ResultEncoding.encode(NullResult())) == "null")
        #expect(text(try ResultEncoding.encode("line\nbreak")) == #""line\nbreak""#)
    }

    @Test func successResponse() throws {
        let result = try ResultEncoding.encode(Unsorted())
        #expect(text(Dispatcher.successResponse(id: .int(1), result: result))
            == #"{"jsonrpc":"2.0","id":1,"result":{"alpha":"a/b","middle":{"b":1,"y":2},"zeta":1}}"#)
        #expect(text(Dispatcher.successResponse(id: .string("a/\"b\""), result: Array("null".utf8)))
            == #"{"jsonrpc":"2.0","id":"a/\"b\"","result":null}"#)
        #expect(text(Dispatcher.successResponse(id: nil, result: Array("[]".utf8)))
            == #"{"jsonrpc":"2.0","id":null,"result":[]}"#)
    }

    @Test func errorResponses() {
        #expect(text(Dispatcher.errorResponse(id: .int(-3), .methodNotFound("movies/search")))
            == #"{"jsonrpc":"2.0","id":-3,"error":{"code":-32601,"data":{"kind":"methodNotFound","#
                + #""method":"movies/search"},"message":"Method not found: movies/search"}}"#)
        #expect(text(Dispatcher.errorResponse(id: nil, .parseError("Parse error: invalid JSON")))
            == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"data":{"kind":"parseError"},"#
                + #""message":"Parse error: invalid JSON"}}"#)
        let missing = ResponseError.invalidParams("Missing required param \"a\"", field: "a")
        #expect(text(Dispatcher.errorResponse(id: .string("x"), missing))
            == #"{"jsonrpc":"2.0","id":"x","error":{"code":-32602,"data":{"field":"a","kind":"invalidParams"},"#
                + #""message":"Missing required param \"a\""}}"#)
        let noData = ResponseError(code: ErrorCode(rawValue: -32001), message: "No data")
        #expect(text(Dispatcher.errorResponse(id: .int(2), noData))
            == #"{"jsonrpc":"2.0","id":2,"error":{"code":-32001,"message":"No data"}}"#)
        #expect(text(Dispatcher.errorResponse(id: .int(5), .cancelled))
            == #"{"jsonrpc":"2.0","id":5,"error":{"code":-32800,"data":{"kind":"requestCancelled"},"#
                + #""message":"Request cancelled"}}"#)
    }

    @Test func batchResponseJoinsMembers() {
        let parts = [Array(#"{"a":1}"#.utf8), Array(#"{"b":2}"#.utf8)]
        #expect(text(Dispatcher.batchResponse(parts)) == #"[{"a":1},{"b":2}]"#)
    }

    @Test func repliesThroughTheDispatcher() async throws {
        let fixture = DispatcherFixture()
        let collector = ReplyCollector()
        fixture.dispatcher.receive(
            utf8(#"{"id":"a1","params":{"b":2,"a":1},"method":"math.add","jsonrpc":"2.0"}"#), reply: collector.reply)
        await fixture.dispatcher.waitUntilIdle()
        fixture.dispatcher.receive(utf8(#"{"jsonrpc":"2.0","id":7,"method":"movies.details"}"#), reply: collector.reply)
        await fixture.dispatcher.waitUntilIdle()
        #expect(collector.texts == [
            #"{"jsonrpc":"2.0","id":"a1","result":{"sum":3}}"#,
            #"{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"data":{"kind":"notFound","movieId":42},"#
                + #""message":"Movie not found"}}"#,
        ])
    }

    @Test func responseErrorRoundTrips() throws {
        let error = ResponseError.invalidParams("Param \"ids[1]\" must be an integer", field: "ids[1]")
        let decoded = try JSONDecoder().decode(ResponseError.self, from: Data(try ResultEncoding.encode(error)))
        #expect(decoded == error)
    }

    @Test func jsonValueRoundTrips() throws {
        let value: JSONValue = ["n": nil, "b": true, "i": -4, "d": 2.5, "s": "é", "a": [1, "x", [:]], "o": ["k": []]]
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(try ResultEncoding.encode(value)))
        #expect(decoded == value)
        #expect(text(try ResultEncoding.encode(value))
            == #"{"a":[1,"x",{}],"b":true,"d":2.5,"i":-4,"n":null,"o":{"k":[]},"s":"é"}"#)
    }
}
