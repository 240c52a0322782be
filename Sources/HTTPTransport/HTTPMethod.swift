/// An HTTP request method.
public enum HTTPMethod: String, Sendable, Hashable {
    /// `GET`
    case get = "GET"
    /// `HEAD`
    case head = "HEAD"
    /// `POST`
    case post = "POST"
    /// `PUT`
    case put = "PUT"
    /// `PATCH`
    case patch = "PATCH"
    /// `DELETE`
    case delete = "DELETE"

    /// Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2): only such
    /// requests are sent again automatically when a kept-alive connection dies under them.
    public var isIdempotent: Bool { self != .post && self != .patch }
}
