#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which redirects ``SocketHTTPClient`` follows, as URLSession did: 301, 302, 303, 307 and 308 for `GET` and
/// `HEAD`, at most ``maxRedirects`` in a row. A redirect from `https` to `http` is not followed (the 3xx is
/// returned as is), and `Authorization` is not sent to another host. A request's ``RedirectRule`` may restrict
/// them further (``allows(_:by:from:startedAt:)``).
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

    /// Whether `target` may be followed under `rule`, for a request to `firstURL` whose first address was of
    /// class `startedAt`. Decides on what the URL says; the address actually connected to is checked again at
    /// connection time.
    static func allows(_ target: URL, by rule: RedirectRule, from firstURL: URL, startedAt: AddressClass) -> Bool {
        guard let to = try? HTTPOrigin(url: target), let from = try? HTTPOrigin(url: firstURL),
              rule.allows(to, after: from)
        else { return false }
        if !rule.allowsNonPublicAddresses, startedAt.isPublic, let literal = AddressClass.literal(to.host) {
            return literal.isPublic
        }
        return true
    }
}
