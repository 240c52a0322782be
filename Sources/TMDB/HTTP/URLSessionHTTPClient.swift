import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPClient`` backed by its own `URLSession`.
///
/// Timeouts are whole seconds, at least 1: on Linux, URLSession truncates fractional timeouts and
/// fails at once below one second. Transport failures are thrown as ``HTTPTransportError``.
public final class URLSessionHTTPClient: HTTPClient {
    /// Made on first use: creating a URLSession initialises libcurl, which costs a process that never
    /// goes to the network (demo mode, cached answers) tens of milliseconds and megabytes at startup.
    private let lazySession = Mutex<URLSession?>(nil)
    /// The request timeout in whole seconds (at least 1).
    public let timeoutSeconds: Int

    /// Creates a client with an ephemeral session (no cookies, no URL cache).
    /// - Parameter timeoutSeconds: per-request timeout; values below 1 become 1.
    public init(timeoutSeconds: Int = 10) {
        self.timeoutSeconds = max(1, timeoutSeconds)
    }

    deinit {
        lazySession.withLock { $0?.finishTasksAndInvalidate() }
    }

    private var session: URLSession {
        lazySession.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
            configuration.timeoutIntervalForResource = TimeInterval(timeoutSeconds)
            configuration.httpCookieStorage = nil
            configuration.urlCache = nil
            let created = URLSession(configuration: configuration)
            session = created
            return created
        }
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
