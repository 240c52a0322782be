#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a method's params and turns every way that can fail into -32602 naming the field.
public enum ParamsDecoding {
    /// Decodes `Params` from a request's params. `allowed` lists the accepted member names (nil: any): a
    /// method takes a handful, which a scan compares faster than a set hashes one name.
    public static func decode<Params: Decodable>(
        _ type: Params.Type, from input: ParamsInput, allowed: [String]? = []
    ) throws -> Params {
        // Nothing to decode for a method without params: no decoder made for `server.info` and the like.
        // A metatype comparison, not `NoParams() as? Params`: that cast was a runtime conformance search
        // on every such request.
        if input.kind.isEmpty, Params.self == NoParams.self {
            // safe: `Params` is `NoParams`, checked on the line above.
            return unsafeBitCast(NoParams(), to: Params.self)
        }
        do {
            switch input.kind {
            case .absent, .null, .array(isEmpty: true):
                return try Params(from: ParamsDecoder(.object([])))
            case .array(isEmpty: false):
                // By name only: positional values have no names to check against the contract.
                throw ResponseError.invalidParams("Params must be an object with named members", field: "params")
            case .invalid:
                throw ResponseError.invalidParams("Params must be an object", field: "params")
            case .object:
                // Parsed once: the members are checked on the tree the decoder then reads.
                let value = try ParamsValue.parse(input.params)
                if let allowed { try checkMembers(of: value, allowed: allowed) }
                return try Params(from: ParamsDecoder(value))
            }
        } catch let error as ResponseError {
            throw error
        } catch let error as UnknownParam {
            throw ResponseError.invalidParams("Unknown param \"\(error.name)\"", field: error.name)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                // A number the member's type cannot hold (`1.5` or 2^63 for an integer, `1e400` for any
                // number) is reported with no path, as Foundation reports it ("not valid JSON"); the member is
                // found by decoding again with the decoder asked for it, on this error path only.
                throw numberProblem(decoding: type, from: input)
            }
            throw describe(error)
        }
    }

    /// Refuses a member the method does not accept (`_meta` is protocol metadata, MCP's, never a param).
    private static func checkMembers(of params: ParamsValue, allowed: [String]) throws {
        guard case .object(let members) = params else { return }
        for (name, _) in members where name != "_meta" && !allowed.contains(name) {
            throw UnknownParam(name: name)
        }
    }

    /// The member whose number its type cannot hold, as a -32602 naming it: found by decoding once more
    /// with ``ParamsValue/numberPaths`` set, which makes the decoder say where.
    private static func numberProblem<Params: Decodable>(decoding type: Params.Type, from input: ParamsInput)
        -> ResponseError
    {
        let found: UnrepresentableNumber?
        do {
            _ = try ParamsValue.$numberPaths.withValue(true) {
                try ParamsDecoder.decode(Params.self, from: input.params)
            }
            found = nil
        } catch let error as UnrepresentableNumber {
            found = error
        } catch {
            found = nil
        }
        // Only a number beyond Double's range is left without a member here (or an `init(from:)` of our own
        // that turned the error into another).
        guard let found, let number = Double(found.literal), number.isFinite else {
            return .invalidParams("Params hold a number that is out of range", field: "params")
        }
        let field = path(found.codingPath)
        if number.rounded(.towardZero) == number {
            return .invalidParams("Param \"\(field)\" must be an integer between \(Int.min) and \(Int.max)", field: field)
        }
        return .invalidParams("Param \"\(field)\" must be an integer", field: field)
    }

    /// A -32602 error for a decoding failure, with `data.field` as a dotted path (`profile.phone`, `ids[2]`).
    public static func describe(_ error: DecodingError) -> ResponseError {
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return .invalidParams("Missing required param \"\(field)\"", field: field)
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            return .invalidParams("Param \"\(field)\" must be \(jsonTypeName(type))", field: field)
        case .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            return .invalidParams("Param \"\(field)\" must be \(jsonTypeName(type)), not null", field: field)
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            guard !context.codingPath.isEmpty else {
                // Foundation's own reports have no member path, and their wording is not ours to send.
                return .invalidParams("Param \"\(field)\" is invalid", field: field)
            }
            // With a member path, the description comes from one of our `init(from:)`s ("must be …").
            return .invalidParams("Param \"\(field)\" is invalid: \(context.debugDescription)", field: field)
        @unknown default:
            return .invalidParams("Invalid params", field: nil)
        }
    }

    /// Paths start inside `params` (the params value is decoded on its own).
    private static func path(_ keys: [any CodingKey]) -> String {
        var result = ""
        for key in keys {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result.isEmpty ? "params" : result
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: return "a boolean"
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") { return "an array" }
            if name.hasPrefix("Dictionary<") { return "an object" }
            return "a value of the documented type"
        }
    }
}

struct UnknownParam: Error {
    let name: String
}

/// A coding key made from any string, for looking at keys no type declares.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
