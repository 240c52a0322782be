import Foundation
import Testing

@testable import JSONRPC

/// `EnvelopeReader` replaced a `JSONDecoder` decode of the envelope; these tests hold it to what that
/// decode decided, with the old `Decodable` logic kept here as the reference.
@Suite struct EnvelopeReaderTests {
    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"server.info"}"#,
        #"{}"#,
        #" { "jsonrpc" : "2.0" , "method" : "a.b" , "id" : "x" } "#,
        // The first of duplicate members wins.
        #"{"jsonrpc":"2.0","id":1,"id":2,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"a","method":5}"#,
        #"{"jsonrpc":"2.0","id":3,"method":5,"method":"a"}"#,
        #"{"jsonrpc":"1.0","jsonrpc":"2.0","method":"a"}"#,
        // Escaped keys and values.
        #"{"jsonrpc":"2.0","id":3,"met\u0068od":"x.y"}"#,
        #"{"jsonrpc":"2\u002e0","id":"a\u0062\n\t\"\\\/","method":"\ud83c\udfac.play"}"#,
        #"{"jsonrpc":"2.0","id":"\u00e9t\u00E9","method":"caf\u00e9"}"#,
        // Names compared byte for byte: near misses, and names that are not plain ASCII.
        #"{"jsonrpc":"2.0","id":1,"Method":"a","methods":"b","i":2,"ids":3,"paramsX":[],"erro":1}"#,
        #"{"jsonrpc":"2.0","id":1,"méthod":"a","method":"b"}"#,
        #"{"jsonrpc":"2.0","\u0069d":7,"id":8,"method":"b"}"#,
        // Integral numbers are integers, however they are spelled; others are not ids.
        #"{"jsonrpc":"2.0","id":1.0,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":1e2,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":1E+2,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":100e-2,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":-0,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":-0.0,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":1.5,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":1e400,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":9223372036854775807,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":9223372036854775808,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":-9223372036854775809,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":9223372036854775807.0,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":-9223372036854775808.0,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":9.2e18,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":12345678901234567890e-10,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":true,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":null,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":[1],"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":{"a":1},"method":"a"}"#,
        // Params shapes.
        #"{"jsonrpc":"2.0","id":4,"method":"a","params":[ ]}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"a","params":[0]}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"a","params":{}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"a","params":null}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"a","params":"x"}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"a","params":12}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"a","params":false}"#,
        // Brackets, quotes and member names inside nested values are not members.
        #"{"params":{"method":"no","id":9,"s":"}]\"{["},"jsonrpc":"2.0","method":"a","id":5}"#,
        #"{"jsonrpc":"2.0","params":[{"id":1},["]"]],"id":"[{","method":"a"}"#,
        // Responses and half-responses.
        #"{"jsonrpc":"2.0","result":1,"id":9}"#,
        #"{"jsonrpc":"2.0","error":{"code":1},"id":9}"#,
        #"{"jsonrpc":"2.0","id":10,"method":"a","error":1}"#,
        // Wrong member types.
        #"{"jsonrpc":2.0,"id":1,"method":"a"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":null}"#,
        #"{"jsonrpc":"2.0","id":1,"method":["a"]}"#,
        #"{"jsonrpc":"2.0","id":12}"#,
        // Whitespace everywhere, and envelope names inside values (never members of the envelope).
        #" { "jsonrpc" : "2.0" , "id" : 13 , "method" : "a" , "params" : { "id" : 2, "method": "b" } } "#,
        #"{"params":[{"jsonrpc":"1.0"},"id"],"method":"c","id":"x","jsonrpc":"2.0"}"#,
    ])
    func agreesWithJSONDecoder(_ message: String) throws {
        let expected = try JSONDecoder().decode(ReferenceEnvelope.self, from: Data(message.utf8))
        let read = try #require(Self.read(message))
        #expect(read.isVersion2 == (expected.version == "2.0"))
        #expect(read.method == expected.method)
        #expect(read.methodMember == expected.methodMember)
        #expect(read.id == expected.id)
        #expect(read.params == expected.params)
        #expect(read.isResponse == expected.isResponse)
    }

    @Test func generatedEnvelopesAgreeWithJSONDecoder() throws {
        let values = [
            #""2.0""#, #""a.b""#, "1", "-7", "2.0", "1e3", "null", "true", "[]", "[1,[2]]", "{}", #"{"id":1}"#,
            #""\u0041\n""#, #""]}\"""#, "9223372036854775808", "0.5", #""2\u002e0""#, #""2.00""#, #""2.1""#,
        ]
        let names = ["jsonrpc", "method", "id", "params", "result", "error", "other", #"i\u0064"#]
        var generator = SplitMix(seed: 0x5EED)
        for _ in 0..<2_000 {
            let count = Int(generator.next() % 6)
            let members = (0..<count).map { _ in
                let name = names[Int(generator.next() % UInt64(names.count))]
                let value = values[Int(generator.next() % UInt64(values.count))]
                return "\"\(name)\":\(value)"
            }
            let message = "{" + members.joined(separator: ",") + "}"
            let expected = try JSONDecoder().decode(ReferenceEnvelope.self, from: Data(message.utf8))
            let read = try #require(Self.read(message))
            #expect(read.isVersion2 == (expected.version == "2.0"), "\(message)")
            #expect(read.method == expected.method, "\(message)")
            #expect(read.methodMember == expected.methodMember, "\(message)")
            #expect(read.id == expected.id, "\(message)")
            #expect(read.params == expected.params, "\(message)")
            #expect(read.isResponse == expected.isResponse, "\(message)")
        }
    }

    /// Plain integers are read from their digits as `Int(String)` reads them, at every length and at
    /// both ends of the range.
    @Test func plainIntegersAreReadAsIntParsesThem() {
        var generator = SplitMix(seed: 0x1D)
        var literals = ["0", "-0", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                        "-9223372036854775809", "99999999999999999999", "-99999999999999999999"]
        for _ in 0..<2_000 {
            let value = Int(truncatingIfNeeded: generator.next()) >> Int(generator.next() % 64)
            literals.append(String(value))
        }
        for literal in literals {
            let read = Array(literal.utf8).withUnsafeBufferPointer { EnvelopeReader.plainInteger($0) }
            #expect(read == Int(literal), "\(literal)")
        }
    }

    @Test(arguments: ["", "[]", "{", #"{"a""#, #"{"a":"#, #"{"a":"b"#, #"{"a":1,}"#, #"{"a":[1}"#, #"{"a":"\"#])
    func bytesThatAreNotOneObjectReadAsNil(_ text: String) {
        // The scanner refuses these first; the reader must still not crash or invent an envelope.
        #expect(Self.read(text) == nil)
    }

    /// The envelope `EnvelopeReader.read` walks to; for a message the scanner takes as one object, also
    /// the dispatcher's way, from the members the scanner noted as it passed them, which must be the same.
    private static func read(_ message: String) -> MessageEnvelope? {
        let bytes = Array(message.utf8)
        let walked = bytes.withUnsafeBufferPointer { EnvelopeReader.read($0) }
        var members = EnvelopeReader.Members()
        let scanned = bytes.withUnsafeBufferPointer {
            JSONStructureScanner.scan($0, maxDepth: 64, members: &members)
        }
        if case .success(.object) = scanned {
            let noted = bytes.withUnsafeBufferPointer { members.envelope(in: $0) }
            #expect(noted == walked, "\(message)")
        }
        return walked
    }
}

/// A small deterministic generator, so a failure names a message that can be reproduced.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The envelope as `JSONDecoder` decoded it before `EnvelopeReader`: the reference for the tests above.
private struct ReferenceEnvelope: Decodable {
    var version: String?
    var method: String?
    var methodMember: Bool
    var id: MessageEnvelope.IDMember
    var params: MessageEnvelope.ParamsMember
    var isResponse: Bool

    private enum CodingKeys: String, CodingKey {
        case jsonrpc, method, id, params, result, error
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try? container.decode(String.self, forKey: .jsonrpc)
        methodMember = container.contains(.method)
        method = try? container.decode(String.self, forKey: .method)
        if !container.contains(.id) {
            id = .absent
        } else if try container.decodeNil(forKey: .id) {
            id = .null
        } else if let value = try? container.decode(RequestID.self, forKey: .id) {
            id = .valid(value)
        } else {
            id = .invalid
        }
        if !container.contains(.params) {
            params = .absent
        } else if try container.decodeNil(forKey: .params) {
            params = .null
        } else {
            params = try container.decode(ParamsShape.self, forKey: .params).member
        }
        isResponse = !methodMember && (container.contains(.result) || container.contains(.error))
    }

    private struct ParamsShape: Decodable {
        var member: MessageEnvelope.ParamsMember

        init(from decoder: any Decoder) throws {
            if (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil {
                member = .object
            } else if let array = try? decoder.unkeyedContainer() {
                member = .array(isEmpty: array.count == 0 || array.isAtEnd)
            } else {
                member = .invalid
            }
        }
    }
}
