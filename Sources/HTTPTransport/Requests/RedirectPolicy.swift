import Foundation

/// Which redirects ``SocketHTTPClient`` follows, as URLSession did: 301, 302, 303, 307 and 308 for `GET` and
/// `HEAD`, at most ``maxRedirects`` in a row. A redirect from `https` to `http` is not followed (the 3xx is
/// returned as is), and `Authorization` is not sent to another host.
enum RedirectPolicy {
    static let maxRedirects = 5
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send after `response` to `request`, or nil when the response is final.
    static func nextRequest(after response: HTTPResponse, to request: HTTPRequest) -> HTTPRequest? {
        guard request.method == .get || request.method == .head,
              redirectStatuses.contains(response.statusCode),
              let location = response.value(forHeader: "Location"),
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              let from = try? HTTPOrigin(url: request.url),
              let to = try? HTTPOrigin(url: target),
              !(from.scheme == .https && to.scheme == .http)
        else { return nil }
        var next = request
        next.url = target
        if from.host != to.host || from.port != to.port {
            next.headers = next.headers.filter { $0.key.lowercased() != "authorization" }
        }
        return next
    }
}
