import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPClient`` backed by its own `URLSession`.
///
/// Timeouts are whole seconds, at least 1: on Linux, URLSession truncates fractional timeouts and
/// fails at once below one second. Transport failures are thrown as ``HTTPTransportError``.
public final class URLSessionHTTPClient: HTTPClient {
    private let session: URLSession
    /// The request timeout in whole seconds (at least 1).
    public let timeoutSeconds: Int

    /// Creates a client with an ephemeral session (no cookies, no URL cache).
    /// - Parameter timeoutSeconds: per-request timeout; values below 1 become 1.
    public init(timeoutSeconds: Int = 10) {
        let seconds = max(1, timeoutSeconds)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = TimeInterval(seconds)
        configuration.timeoutIntervalForResource = TimeInterval(seconds)
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        self.timeoutSeconds = seconds
        self.session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request`. Any HTTP status is returned; only transport failures throw.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.timeoutInterval = TimeInterval(timeoutSeconds)
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw HTTPTransportError(error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw HTTPTransportError.other(code: URLError.Code.badServerResponse.rawValue)
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        return HTTPResponse(statusCode: http.statusCode, headers: headers, body: data)
    }
}
