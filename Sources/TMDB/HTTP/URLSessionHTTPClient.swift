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
            (data, response) = try await load(urlRequest)
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

    private typealias Continuation = CheckedContinuation<(Data, URLResponse), any Error>

    /// `URLSession.data(for:)`, but with a cancellation that cannot deadlock.
    ///
    /// swift-corelibs-foundation's own `data(for:)` cancels its `URLSessionTask` inside Swift's
    /// task-cancellation handler, which runs under the task's status lock, and `URLSessionTask.cancel()`
    /// waits for the session's work queue; if that queue is at the same moment finishing the transfer and
    /// resuming the same task (which needs the status lock), both wait forever and each holds a thread of
    /// the cooperative pool (swiftlang/swift-corelibs-foundation#5412). Here the cancellation handler only
    /// hands the cancel to another queue, and the completion handler resumes from the delegate queue.
    private func load(_ urlRequest: URLRequest) async throws -> (Data, URLResponse) {
        let handle = DataTaskHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Continuation) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let response, error == nil {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                if handle.register(task) {
                    task.resume()
                } else {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            if let task = handle.cancel() {
                DispatchQueue.global().async { task.cancel() }
            }
        }
    }
}

/// The `URLSessionTask` of one request and whether it was cancelled, shared by the request and its
/// cancellation handler (which may run first, on another thread).
private final class DataTaskHandle: Sendable {
    private struct State {
        var task: URLSessionTask?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Records the task; false when the request was already cancelled (the task must not start).
    func register(_ task: URLSessionTask) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.task = task
            return true
        }
    }

    /// Marks the request cancelled; returns its task if it was registered.
    func cancel() -> URLSessionTask? {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }
    }
}
