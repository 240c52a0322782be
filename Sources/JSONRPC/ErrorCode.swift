/// A JSON-RPC error code. The protocol's own codes live here; applications add theirs in an extension.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Invalid JSON was received.
    public static let parseError = ErrorCode(rawValue: -32700)
    /// The JSON sent is not a valid request object.
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    /// The method does not exist.
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    /// Invalid method parameters.
    public static let invalidParams = ErrorCode(rawValue: -32602)
    /// An internal error; its message never carries internals.
    public static let internalError = ErrorCode(rawValue: -32603)
    /// The request was cancelled by `$/cancelRequest` (LSP's code).
    public static let requestCancelled = ErrorCode(rawValue: -32800)
}

/// An error as it goes on the wire: a stable code, a human-readable message, structured data.
public struct ResponseError: Error, Sendable, Hashable, Codable {
    public var code: ErrorCode
    public var message: String
    public var data: JSONValue?

    public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static func parseError(_ message: String) -> ResponseError {
        ResponseError(code: .parseError, message: message, data: ["kind": "parseError"])
    }

    public static func invalidRequest(_ message: String) -> ResponseError {
        ResponseError(code: .invalidRequest, message: message, data: ["kind": "invalidRequest"])
    }

    public static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(
            code: .methodNotFound, message: "Method not found: \(method)",
            data: ["kind": "methodNotFound", "method": .string(method)])
    }

    /// Invalid params; `field` names the offending member (dotted path for nested ones).
    public static func invalidParams(_ message: String, field: String?) -> ResponseError {
        var data: [String: JSONValue] = ["kind": "invalidParams"]
        if let field { data["field"] = .string(field) }
        return ResponseError(code: .invalidParams, message: message, data: .object(data))
    }

    public static let internalError = ResponseError(
        code: .internalError, message: "Internal error", data: ["kind": "internalError"])

    /// A batch member not answered because the batch's reply reached `limit` bytes; `ran` says whether the
    /// request was carried out (its result dropped) or never started.
    public static func replyTooLarge(limit: Int, ran: Bool) -> ResponseError {
        let what = ran ? "its result was dropped (the request was carried out)" : "it was not run"
        return ResponseError(
            code: .invalidRequest,
            message: "The batch's reply reached the limit of \(limit) bytes; \(what). Send it in a smaller batch",
            data: ["kind": "replyTooLarge", "limit": .int(limit), "ran": .bool(ran)])
    }

    public static let cancelled = ResponseError(
        code: .requestCancelled, message: "Request cancelled", data: ["kind": "requestCancelled"])
}
