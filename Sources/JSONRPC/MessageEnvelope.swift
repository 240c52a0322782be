import Foundation

/// The members of one incoming message that say what it is, decoded before (and apart from) its params.
///
/// Nothing here throws for a wrong member type: each member is classified, so that an invalid request
/// can still be answered with its id when the id itself is usable.
struct MessageEnvelope: Decodable {
    enum IDMember: Equatable {
        case absent
        case null
        case valid(RequestID)
        case invalid
    }

    enum ParamsMember: Equatable {
        case absent
        case null
        case object
        case array(isEmpty: Bool)
        case invalid
    }

    var version: String?
    var method: String?
    var methodMember: Bool
    var id: IDMember
    var params: ParamsMember
    /// A `result` or `error` without `method`: a response from the client, which we never asked for.
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

    /// Why this is not a valid request, or nil when it is one.
    var problem: String? {
        if version != "2.0" { return "\"jsonrpc\" must be exactly \"2.0\"" }
        if method == nil { return methodMember ? "\"method\" must be a string" : "Missing \"method\"" }
        if id == .invalid { return "\"id\" must be an integer, a string or null" }
        if params == .invalid { return "\"params\" must be an object or an array" }
        return nil
    }

    /// The id to answer with: the request's own when usable, else null.
    var responseID: RequestID? {
        if case .valid(let value) = id { return value }
        return nil
    }
}

/// Only the kind of a `params` value: object, array (and whether empty), or something invalid.
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
