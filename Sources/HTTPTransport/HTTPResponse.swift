#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A transport-neutral HTTP response. Any status code is a response, not an error.
public struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code, e.g. 200 or 429.
    public var statusCode: Int
    /// Header fields as received. Use ``value(forHeader:)`` for case-insensitive lookup.
    public var headers: [String: String]
    /// The response body (possibly empty).
    public var body: Data

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The value of the header named `name`, compared case-insensitively.
    public func value(forHeader name: String) -> String? {
        HTTPHeaderLookup.value(forHeader: name, in: headers)
    }

    /// Whether the status code is in `200..<300`.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }
}
