import Testing
@testable import JSONRPC

@Suite("Params decoding through the dispatcher", .tags(.dispatch))
struct DispatcherParamsTests {
    let fixture = DispatcherFixture(allowedParams: ["math.add": ["a", "b"]])

    private func request(_ method: String, params: String?, id: Int = 1) -> String {
        let params = params.map { #","params":\#($0)"# } ?? ""
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"\#(params)}"#
    }

    @Test(arguments: [nil, "null", "[]", "{}", #"{"extra": true}"#])
    func noParamsMethodAcceptsAnyEmptyParams(params: String?) async throws {
        let replies = try await fixture.send(request("ping", params: params))
        #expect(replies == [["jsonrpc": "2.0", "id": 1, "result": "pong"]])
    }

    /// By name only: a positional array has no names to check, even for a method without params.
    @Test func positionalParamsAreInvalidEvenWithoutParams() async throws {
        let replies = try await fixture.send(request("ping", params: "[1, 2]"))
        try #require(replies.count == 1)
        #expect(replies[0].errorCode == -32602 && replies[0].errorField == "params")
    }

    @Test func fractionalNumberForAnIntegerNamesTheField() async throws {
        let replies = try await fixture.send(request("math.add", params: #"{"a": 1, "b": 2.5}"#))
        try #require(replies.count == 1)
        #expect(replies[0].errorCode == -32602 && replies[0].errorField == "b")
    }

    @Test func typedParamsDecode() async throws {
        let replies = try await fixture.send(request("math.add", params: #"{"a": 2, "b": 40}"#))
        #expect(replies == [["jsonrpc": "2.0", "id": 1, "result": ["sum": 42]]])
    }

    @Test(arguments: [nil, "null", "[]", "{}", #"{"a": 1}"#])
    func missingRequiredFieldNamesIt(params: String?) async throws {
        let replies = try await fixture.send(request("math.add", params: params))
        try #require(replies.count == 1)
        #expect(replies[0]["id"] == 1)
        #expect(replies[0].errorCode == -32602)
        #expect(replies[0].errorField == (params == #"{"a": 1}"# ? "b" : "a"))
        #expect(replies[0].errorMessage?.contains("Missing required param") == true)
    }

    @Test func nonEmptyPositionalParamsAreRejectedForTypedParams() async throws {
        let replies = try await fixture.send(request("math.add", params: "[1, 2]"))
        #expect(replies.map(\.errorCode) == [-32602])
        #expect(replies.first?["id"] == 1)
    }

    @Test(arguments: [
        (#"{"a": "two", "b": 2}"#, "a", "an integer"),
        (#"{"a": true, "b": 2}"#, "a", "an integer"),
        (#"{"a": 1, "b": null}"#, "b", "an integer"),
    ])
    func wrongTypeNamesTheField(params: String, field: String, typeName: String) async throws {
        let replies = try await fixture.send(request("math.add", params: params))
        try #require(replies.count == 1)
        #expect(replies[0].errorCode == -32602)
        #expect(replies[0].errorField == field)
        #expect(replies[0].errorMessage?.contains(typeName) == true)
    }

    /// Foundation on Linux reports a fractional or out-of-range number for an `Int` as invalid JSON with no
    /// coding path; the member is found and named all the same, in our words, never Foundation's.
    @Test(arguments: [
        ("1.5", "a", "Param \"a\" must be an integer"),
        ("1e100", "a", "Param \"a\" must be an integer between -9223372036854775808 and 9223372036854775807"),
        ("99999999999999999999", "a",
         "Param \"a\" must be an integer between -9223372036854775808 and 9223372036854775807"),
        ("9223372036854775808", "a",
         "Param \"a\" must be an integer between -9223372036854775808 and 9223372036854775807"),
        ("-9223372036854775809", "a",
         "Param \"a\" must be an integer between -9223372036854775808 and 9223372036854775807"),
        ("1e400", "params", "Params hold a number that is out of range"),
    ])
    func numberThatDoesNotFitIsInvalidParams(number: String, field: String, message: String) async throws {
        let replies = try await fixture.send(request("math.add", params: #"{"a": \#(number), "b": 2}"#))
        #expect(replies.map(\.errorCode) == [-32602])
        #expect(replies.first?["id"] == 1)
        #expect(replies.first?.errorField == field)
        #expect(replies.first?.errorMessage == message)
    }

    @Test func integerAtTheEdgesOfInt64Decodes() async throws {
        let replies = try await fixture.send(
            request("math.add", params: #"{"a": 9223372036854775807, "b": -9223372036854775808}"#))
        #expect(replies == [["jsonrpc": "2.0", "id": 1, "result": ["sum": -1]]])
    }

    @Test func nestedFieldAndArrayIndexPaths() async throws {
        let nested = try await fixture.send(request(
            "profile.update", params: #"{"name": "Ann", "profile": {"phone": 5551234}, "ids": [1]}"#))
        #expect(nested.map(\.errorCode) == [-32602])
        #expect(nested.first?.errorField == "profile.phone")
        #expect(nested.first?.errorMessage?.contains("profile.phone") == true)

        let indexed = try await fixture.send(request(
            "profile.update", params: #"{"name": "Ann", "profile": {"phone": "555"}, "ids": [1, "two", 3]}"#))
        #expect(indexed.map(\.errorCode) == [-32602])
        #expect(indexed.first?.errorField == "ids[1]")

        let missingNested = try await fixture.send(request(
            "profile.update", params: #"{"name": "Ann", "profile": {}, "ids": []}"#))
        #expect(missingNested.first?.errorField == "profile.phone")

        let ok = try await fixture.send(request(
            "profile.update", params: #"{"name": "Ann", "profile": {"phone": "555"}, "ids": [1, 2]}"#))
        #expect(ok == [["jsonrpc": "2.0", "id": 1, "result": nil]])
    }

    @Test func unknownMemberIsRejectedWhenAllowedParamsAreGiven() async throws {
        let replies = try await fixture.send(request("math.add", params: #"{"a": 1, "b": 2, "c": 3}"#))
        try #require(replies.count == 1)
        #expect(replies[0].errorCode == -32602)
        #expect(replies[0].errorField == "c")
        // `_meta` is protocol metadata, not a param.
        let withMeta = try await fixture.send(request("math.add", params: #"{"a": 1, "b": 2, "_meta": {}}"#))
        #expect(withMeta.first?["result"] == ["sum": 3])
        // A method with no allowed list ignores members its type does not declare.
        let lenient = try await fixture.send(request("subtract", params: #"{"minuend": 3, "subtrahend": 1, "x": 0}"#))
        #expect(lenient.first?["result"] == 2)
    }

    @Test func paramsMustBeAStructuredValue() async throws {
        let replies = try await fixture.send(#"{"jsonrpc":"2.0","id":5,"method":"ping","params":"bar"}"#)
        #expect(replies.map(\.errorCode) == [-32600])
        #expect(replies.first?["id"] == 5)
    }

    /// Found by the fuzzers (movies.discover): `minRating` may be 1.5, `minRuntime` may not be 0.5; the error
    /// named the first fractional number in the params, `minRating`, instead of the member that cannot hold it.
    @Test(arguments: [
        (#"{"minRating": 1.5, "minRuntime": 0.5}"#, "minRuntime", "Param \"minRuntime\" must be an integer"),
        (#"{"minRating": 1.5, "filters": {"weight": 2.5, "pages": [1, 2.5]}}"#, "filters.pages[1]",
         "Param \"filters.pages[1]\" must be an integer"),
        (#"{"minRating": 0.5, "minRuntime": 1e30}"#, "minRuntime",
         "Param \"minRuntime\" must be an integer between -9223372036854775808 and 9223372036854775807"),
        (#"{"minRating": 1e400}"#, "params", "Params hold a number that is out of range"),
    ])
    func aNumberItsTypeCannotHoldNamesItsOwnMember(params: String, field: String, message: String) throws {
        struct Filters: Decodable {
            var weight: Double
            var pages: [Int]
        }
        struct Mixed: Decodable {
            var minRating: Double?
            var minRuntime: Int?
            var filters: Filters?
        }
        let input = ParamsInput(paramsObject: .init(params.utf8))
        #expect(throws: ResponseError.invalidParams(message, field: field)) {
            try ParamsDecoding.decode(Mixed.self, from: input, allowed: nil)
        }
    }

    @Test func standaloneParamsObject() throws {
        let input = ParamsInput(paramsObject: .init(#"{"a": 1, "b": 2}"#.utf8))
        let params = try ParamsDecoding.decode(TestMethods.Add.Params.self, from: input, allowed: ["a", "b"])
        #expect(params.a == 1 && params.b == 2)
        let null = ParamsInput(paramsObject: .init("null".utf8))
        #expect(throws: ResponseError.self) {
            try ParamsDecoding.decode(TestMethods.Add.Params.self, from: null, allowed: nil)
        }
        #expect(try ParamsDecoding.decode(NoParams.self, from: null, allowed: nil) == NoParams())
        let text = ParamsInput(paramsObject: .init(#""a""#.utf8))
        #expect(throws: ResponseError.invalidParams("Params must be an object", field: "params")) {
            try ParamsDecoding.decode(NoParams.self, from: text, allowed: nil)
        }
    }
}
