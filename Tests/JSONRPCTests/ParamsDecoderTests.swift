import Foundation
import Testing

@testable import JSONRPC

/// `ParamsDecoder` must decide as `JSONDecoder` does, value for value and error for error, so that every
/// -32602 stays as it was: each case is decoded both ways and compared.
@Suite struct ParamsDecoderTests {
    enum Policy: String, Decodable, Equatable { case cacheFirst, networkFirst }
    /// Read straight from its string by `ParamsDecoder` (`RawStringParam`); `JSONDecoder` takes the standard
    /// library's `init(from:)`, so each case below checks that both give the same values and errors.
    enum Window: String, RawStringParam, Equatable { case day, week }

    struct Inner: Decodable, Equatable {
        var phone: String?
        var n: Int
    }

    struct Params: Decodable, Equatable {
        var id: Int
        var name: String?
        var flag: Bool?
        var ratio: Double?
        var small: Int8?
        var ids: [Int]?
        var tags: [String: Int]?
        var inner: Inner?
        var policy: Policy?
        var nested: [[Int]]?
        var window: Window?
        var windows: [Window]?
    }

    /// A type whose own `init(from:)` refuses a value, as several params types do.
    struct Checked: Decodable, Equatable {
        var year: Int
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            year = try container.decode(Int.self, forKey: .year)
            guard (1800...2100).contains(year) else {
                throw DecodingError.dataCorruptedError(forKey: .year, in: container, debugDescription: "must be a year")
            }
        }
        enum CodingKeys: String, CodingKey { case year }
    }

    static let cases: [String] = [
        #"{"id":1}"#, #"{"id":1,"id":2}"#, #"{"id":1.0}"#, #"{"id":1e2}"#, #"{"id":-0}"#, #"{"id":1.5}"#,
        #"{"id":99999999999999999999}"#, #"{"id":9223372036854775807}"#, #"{"id":-9223372036854775808}"#,
        #"{"id":"1"}"#, #"{"id":null}"#, #"{}"#, #"{"id":true}"#, #"{"id":[1]}"#, #"{"id":{}}"#,
        #"{"id":1,"name":"Lé\u00f3n \ud83c\udfac \"q\" \\ \/ \n"}"#, #"{"id":1,"name":5}"#, #"{"id":1,"name":null}"#,
        #"{"id":1,"flag":1}"#, #"{"id":1,"flag":false}"#, #"{"id":1,"ratio":5}"#, #"{"id":1,"ratio":1e400}"#,
        #"{"id":1,"ratio":-2.5e-3}"#, #"{"id":1,"small":127}"#, #"{"id":1,"small":128}"#,
        #"{"id":1,"ids":[1,2,3]}"#, #"{"id":1,"ids":[1,"x"]}"#, #"{"id":1,"ids":{"a":1}}"#, #"{"id":1,"ids":[1,null]}"#,
        #"{"id":1,"ids":[1.5]}"#, #"{"id":1,"ids":[]}"#, #"{"id":1,"ids":[1e2,-3,2.0]}"#, #"{"id":1,"ids":null}"#,
        #"{"id":1,"ids":[1,99999999999999999999]}"#, #"{"id":1,"ids":[[1]]}"#, #"{"id":1,"ids":"1"}"#,
        #"{"id":1,"ids":[1,true]}"#, #"{"id":1,"ids":[2,{}]}"#, #"{"id":1,"tags":{"a":1,"b":2}}"#, #"{"id":1,"tags":{"a":"x"}}"#, #"{"id":1,"tags":[]}"#,
        #"{"id":1,"inner":{"n":3}}"#, #"{"id":1,"inner":{"phone":"1"}}"#, #"{"id":1,"inner":{"n":3,"phone":7}}"#,
        #"{"id":1,"inner":[1]}"#, #"{"id":1,"inner":null}"#, #"{"id":1,"policy":"cacheFirst"}"#,
        #"{"id":1,"policy":"sometimes"}"#, #"{"id":1,"policy":3}"#, #"{"id":1,"nested":[[1],[2,3],[]]}"#,
        #"{"id":1,"nested":[[1],["x"]]}"#, #"{"id":1,"window":"week"}"#, #"{"id":1,"window":"month"}"#,
        #"{"id":1,"window":"Week"}"#, #"{"id":1,"window":7}"#, #"{"id":1,"window":null}"#, #"{"id":1,"window":["day"]}"#,
        #"{"id":1,"windows":["day","week"]}"#, #"{"id":1,"windows":["day","year"]}"#, #"{"id":1,"windows":["day",null]}"#,
        #"{"id":1,"windows":[1]}"#, #"  { "id" : 1 , "extra" : [ {"deep": [null, true]} ] }  "#,
    ]

    /// What a decode gave: the value, or the error's kind, path and type, as `ParamsDecoding.describe` reads it.
    enum Outcome<T: Equatable>: Equatable {
        case value(T)
        case error(String)
    }

    static func outcome<T: Decodable & Equatable>(_ body: () throws -> T) -> Outcome<T> {
        do {
            return .value(try body())
        } catch let error as DecodingError {
            func path(_ keys: [any CodingKey]) -> String {
                keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            }
            switch error {
            case .keyNotFound(let key, let context): return .error("keyNotFound \(path(context.codingPath + [key]))")
            case .typeMismatch(let type, let context): return .error("typeMismatch \(type) \(path(context.codingPath))")
            case .valueNotFound(let type, let context): return .error("valueNotFound \(type) \(path(context.codingPath))")
            case .dataCorrupted(let context):
                // Foundation's own wording is never sent (see ParamsDecoding); ours, with a path, is.
                let text = context.codingPath.isEmpty ? "" : context.debugDescription
                return .error("dataCorrupted \(path(context.codingPath)) \(text)")
            @unknown default: return .error("unknown")
            }
        } catch {
            return .error("other \(error)")
        }
    }

    @Test(arguments: cases)
    func decidesAsJSONDecoderDoes(json: String) {
        let data = Data(json.utf8)
        let ours = Self.outcome { try ParamsDecoder.decode(Params.self, from: data) }
        let foundation = Self.outcome { try JSONDecoder().decode(Params.self, from: data) }
        #expect(ours == foundation, "\(json)")
    }

    @Test(arguments: [#"{"year":1999}"#, #"{"year":1700}"#, #"{"year":"x"}"#, #"{}"#, #"[]"#, #"5"#])
    func ownInitializersFailTheSameWay(json: String) {
        let data = Data(json.utf8)
        #expect(Self.outcome { try ParamsDecoder.decode(Checked.self, from: data) }
                == Self.outcome { try JSONDecoder().decode(Checked.self, from: data) }, "\(json)")
    }

    @Test func openValuesDecodeTheSame() throws {
        let json = Data(#"{"a":[1,2.5,"x",true,null,{"b":{}}],"c":-7,"d":1e2}"#.utf8)
        #expect(try ParamsDecoder.decode(JSONValue.self, from: json) == JSONDecoder().decode(JSONValue.self, from: json))
        #expect(try ParamsDecoder.decode([String: JSONValue].self, from: json).keys.sorted() == ["a", "c", "d"])
    }
}
