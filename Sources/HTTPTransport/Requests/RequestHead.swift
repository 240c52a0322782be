#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes of an HTTP/1.1 request: request line, headers and body, ready to write.
enum RequestHead {
    /// Formats `request` for `origin`.
    /// - Parameters:
    ///   - absoluteForm: the request goes to a plain-HTTP proxy, which wants the whole URL as the target.
    ///   - proxyAuthorization: the `Proxy-Authorization` value for that proxy, if it has credentials.
    static func bytes(
        for request: HTTPRequest, origin: HTTPOrigin, absoluteForm: Bool = false, proxyAuthorization: String? = nil
    ) -> [UInt8] {
        let originTarget = HTTPOrigin.originFormTarget(of: request.url)
        let target = absoluteForm ? "\(origin.scheme.rawValue)://\(origin.hostHeader)\(originTarget)" : originTarget
        var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\n"
        head += "Host: \(origin.hostHeader)\r\n"
        // Sorted so that the bytes sent are the same from run to run.
        for name in request.headers.keys.sorted() where !Self.managedHeaders.contains(name.lowercased()) {
            guard let value = request.headers[name], Self.isSafe(name), Self.isSafe(value) else { continue }
            head += "\(name): \(value)\r\n"
        }
        if request.value(forHeader: "User-Agent") == nil {
            head += "User-Agent: movie-rpc\r\n"
        }
        if let body = request.body {
            head += "Content-Length: \(body.count)\r\n"
        } else if [.post, .put, .patch].contains(request.method) {
            head += "Content-Length: 0\r\n"
        }
        if let proxyAuthorization {
            head += "Proxy-Authorization: \(proxyAuthorization)\r\n"
        }
        head += "Connection: keep-alive\r\n\r\n"
        var bytes = Array(head.utf8)
        if let body = request.body {
            bytes.append(contentsOf: body)
        }
        return bytes
    }

    /// A `CONNECT` request opening a tunnel through a proxy to `origin`.
    static func connectBytes(to origin: HTTPOrigin, proxyAuthorization: String?) -> [UInt8] {
        var head = "CONNECT \(origin.authority) HTTP/1.1\r\nHost: \(origin.authority)\r\n"
        if let proxyAuthorization {
            head += "Proxy-Authorization: \(proxyAuthorization)\r\n"
        }
        head += "User-Agent: movie-rpc\r\n\r\n"
        return Array(head.utf8)
    }

    /// Headers this client writes itself; a caller's copies would contradict them.
    private static let managedHeaders: Set<String> = [
        "host", "content-length", "connection", "transfer-encoding", "proxy-authorization", "keep-alive",
    ]

    /// No line breaks or NULs: a header must not be able to start another one.
    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
    }
}
