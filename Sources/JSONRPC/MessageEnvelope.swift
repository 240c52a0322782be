#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The members of one incoming message that say what it is, decoded before (and apart from) its params.
///
/// Nothing here fails for a wrong member type: each member is classified, so that an invalid request
/// can still be answered with its id when the id itself is usable. ``EnvelopeReader`` reads it.
struct MessageEnvelope: Equatable {
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

        /// Absent, null or `[]`: what a method without params accepts as "no params".
        var isEmpty: Bool { self == .absent || self == .null || self == .array(isEmpty: true) }
    }

    /// `jsonrpc` is the string "2.0".
    var isVersion2: Bool
    var method: String?
    var methodMember: Bool
    var id: IDMember
    var params: ParamsMember
    /// Where the `params` value is in the message's bytes, when it is there.
    var paramsRange: Range<Int>?
    /// A `result` or `error` without `method`: a response from the client, which we never asked for.
    var isResponse: Bool

    /// Why this is not a valid request, or nil when it is one.
    var problem: String? {
        if !isVersion2 { return "\"jsonrpc\" must be exactly \"2.0\"" }
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
