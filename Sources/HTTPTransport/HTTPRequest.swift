#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A transport-neutral HTTP request.
///
/// The URL may carry a credential (`api_key`) and the headers may carry a bearer token, so
/// `description` shows neither: credential query values and the `Authorization` header are redacted.
public struct HTTPRequest: Sendable, Hashable {
    /// The absolute URL to request.
    public var url: URL
    /// The request method.
    public var method: HTTPMethod
    /// Header fields. Names are compared case-insensitively by the clients in this module.
    public var headers: [String: String]
    /// The request body, if any.
    public var body: Data?
    /// Where redirects may lead (by default wherever ``RedirectPolicy`` allows).
    public var redirects: RedirectRule
    /// The largest response body accepted, in bytes; a longer one fails while it is read (before it is
    /// buffered) with `HTTPTransportError.Code.dataLengthExceedsMaximum`. nil: the transport's own limit (64 MiB).
    public var maxResponseBytes: Int?

    /// Creates a request; by default a `GET` with no headers and no body.
    public init(
        url: URL, method: HTTPMethod = .get, headers: [String: String] = [:], body: Data? = nil,
        redirects: RedirectRule = .unrestricted, maxResponseBytes: Int? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.redirects = redirects
        self.maxResponseBytes = maxResponseBytes
    }

    /// The value of the header named `name`, compared case-insensitively.
    public func value(forHeader name: String) -> String? {
        HTTPHeaderLookup.value(forHeader: name, in: headers)
    }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Query names whose values are credentials.
    private static let credentialQueryNames: Set<String> = ["api_key", "session_id", "request_token"]

    /// Method, URL without credential values, and header names (the `Authorization` value hidden).
    public var description: String {
        "\(method.rawValue) \(Self.redactedURL(url)) headers: [\(redactedHeaders)]"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror showing only the redacted description.
    public var customMirror: Mirror { Mirror(self, children: ["request": description]) }

    private var redactedHeaders: String {
        headers.keys.sorted().map { name in
            name.lowercased() == "authorization" ? "\(name): <redacted>" : "\(name): \(headers[name] ?? "")"
        }.joined(separator: ", ")
    }

    private static func redactedURL(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<unparseable URL>"
        }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                guard credentialQueryNames.contains(item.name.lowercased()) else { return item }
                return URLQueryItem(name: item.name, value: "REDACTED")
            }
        }
        components.user = nil
        components.password = nil
        return components.string ?? "<unparseable URL>"
    }
}
