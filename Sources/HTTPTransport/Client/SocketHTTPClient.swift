import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ``HTTPClient`` speaking HTTP/1.1 over POSIX sockets, with TLS through OpenSSL for `https`.
///
/// - Each request has one deadline, `timeoutSeconds` after it starts (fractions work), shared by DNS,
///   connect, TLS handshake, writing, reading and redirects; past it the request fails with
///   `HTTPTransportError.Code.timedOut`.
/// - Connections are kept alive and reused per origin (see ``ConnectionPool``); a reused connection that
///   fails before any byte of the answer arrives is retried once on a fresh one, unless its method is not
///   idempotent (`POST`, `PATCH`), which fails with `networkConnectionLost` instead. At most six exchanges
///   run at once per origin (``OriginConnectionLimit``); the others wait their turn within their deadline.
/// - Redirects are followed as ``RedirectPolicy`` says; `http_proxy`, `https_proxy` and `no_proxy` are
///   honoured as curl honours them (read once, when the client is made).
/// - Only transport failures throw: ``HTTPTransportError`` with a code, or `CancellationError`.
///   No error, and no log line, carries the URL, a header or the body: they hold credentials.
///
/// The blocking parts (DNS, `poll`) run on a thread of their own per request, never on Swift's cooperative
/// pool. The process should ignore `SIGPIPE` (the server does): OpenSSL writes to a socket the peer may
/// have closed.
public final class SocketHTTPClient: HTTPClient {
    /// The time a request may take, in seconds, redirects included.
    public let timeoutSeconds: Double
    private let proxies: ProxyConfiguration
    private let pool = ConnectionPool()
    private let connectionLimit: OriginConnectionLimit

    /// Creates a client.
    /// - Parameters:
    ///   - timeoutSeconds: the deadline of each request; values below 0.001 become 0.001.
    ///   - environment: where `http_proxy`, `https_proxy` and `no_proxy` are read, once; nil: the process's.
    ///   - maxConnectionsPerOrigin: exchanges at once per origin (scheme, host, port).
    public init(
        timeoutSeconds: Double = 10, environment: [String: String]? = nil,
        maxConnectionsPerOrigin: Int = OriginConnectionLimit.defaultLimit
    ) {
        self.timeoutSeconds = timeoutSeconds.isFinite ? max(0.001, timeoutSeconds) : 10
        proxies = ProxyConfiguration(environment: environment ?? ProxyConfiguration.processEnvironment())
        connectionLimit = OriginConnectionLimit(limit: maxConnectionsPerOrigin)
    }

    /// Creates a client with a timeout in whole seconds.
    public convenience init(timeoutSeconds: Int) {
        self.init(timeoutSeconds: Double(timeoutSeconds))
    }

    deinit {
        pool.closeAll()
    }

    /// Sends `request`. Any HTTP status is returned; only transport failures throw.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let deadline = Deadline(secondsFromNow: timeoutSeconds)
        var current = request
        var addresses = AddressRequirement.any
        var visited: Set<String> = [request.url.absoluteString]
        var start: AddressClass?
        var previous: HTTPResponse?
        while true {
            let origin = try HTTPOrigin(url: current.url)
            let answer: Answer
            do {
                answer = try await connectionLimit.withSlot(for: origin) { [current, addresses] in
                    try await exchangeOnIOThread(current, to: origin, addresses: addresses, deadline: deadline)
                }
            } catch is TCPConnector.AddressNotAdmitted {
                // Only a redirect's hop is restricted: the redirect is not followed, and its 3xx is the answer.
                guard let previous else { throw HTTPTransportError(.cannotConnectToHost) }
                return previous
            }
            let startedAt = start ?? answer.addressClass
            start = startedAt
            guard let next = RedirectPolicy.nextRequest(after: answer.response, to: current),
                  RedirectPolicy.allows(next.url, by: request.redirects, from: request.url, startedAt: startedAt)
            else { return answer.response }
            // A URL seen before is a loop: it would only come round again until the limit.
            guard visited.insert(next.url.absoluteString).inserted, visited.count <= RedirectPolicy.maxRedirects + 1
            else { throw HTTPTransportError.tooManyRedirects }
            addresses = request.redirects.allowsNonPublicAddresses || !startedAt.isPublic ? .any : .publicOnly
            previous = answer.response
            current = next
        }
    }

    /// Which addresses one exchange may connect to.
    private enum AddressRequirement: Sendable {
        case any
        /// Only ``AddressClass/publicInternet``: a redirect's hop after a request that started there.
        case publicOnly

        func admits(_ addressClass: AddressClass) -> Bool { self == .any || addressClass.isPublic }
    }

    /// A response, and the class of the address it came from.
    private struct Answer: Sendable {
        var response: HTTPResponse
        var addressClass: AddressClass
    }

    /// Runs one exchange on a thread of its own and waits for it without holding a cooperative thread.
    /// Cancelling the task wakes that thread, which then throws `CancellationError`.
    private func exchangeOnIOThread(
        _ request: HTTPRequest, to origin: HTTPOrigin, addresses: AddressRequirement, deadline: Deadline
    ) async throws -> Answer {
        let cancellation = try RequestCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                // A serial queue of its own targets libdispatch's overcommitting pool: blocking in it never
                // starves other work, and its thread is reused rather than created per request.
                DispatchQueue(label: "movie-rpc.http-exchange").async {
                    let result = Result {
                        try self.exchange(
                            request, to: origin, addresses: addresses, deadline: deadline, cancellation: cancellation)
                    }
                    cancellation.finish()
                    continuation.resume(with: result)  // the only resume, on every path
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    // MARK: On the I/O thread

    private func exchange(
        _ request: HTTPRequest, to origin: HTTPOrigin, addresses: AddressRequirement, deadline: Deadline,
        cancellation: RequestCancellation
    ) throws -> Answer {
        try cancellation.check()
        let proxy = proxies.proxy(for: origin)
        // A plain-HTTP proxy gets the whole URL and its credentials; an https origin is reached through a
        // CONNECT tunnel, and the request inside it is the ordinary one.
        let viaHTTPProxy = proxy != nil && origin.scheme == .http
        let bytes = RequestHead.bytes(
            for: request, origin: origin, absoluteForm: viaHTTPProxy,
            proxyAuthorization: viaHTTPProxy ? proxy?.authorization : nil)
        let limit = max(0, request.maxResponseBytes ?? HTTPResponseParser.defaultMaxBodyBytes)

        if let pooled = pool.take(origin) {
            guard addresses.admits(pooled.addressClass) else {
                pool.put(pooled)
                throw TCPConnector.AddressNotAdmitted()
            }
            do {
                let response = try exchange(
                    bytes, method: request.method, maxBodyBytes: limit, on: pooled, deadline: deadline,
                    cancellation: cancellation)
                return Answer(response: response, addressClass: pooled.addressClass)
            } catch let failure as ExchangeFailure where failure.beforeAnyResponseByte && request.method.isIdempotent
                && failure.error as? HTTPTransportError == HTTPTransportError(.networkConnectionLost)
            {
                // The server closed the idle connection just as it was reused: one try on a fresh one. Not for
                // a POST: the server may have acted on it already (a Firebase sign-up would be sent twice).
            } catch let failure as ExchangeFailure {
                throw failure.error
            }
        }
        let connection = try open(
            origin, through: proxy, addresses: addresses, deadline: deadline, cancellation: cancellation)
        do {
            let response = try exchange(
                bytes, method: request.method, maxBodyBytes: limit, on: connection, deadline: deadline,
                cancellation: cancellation)
            return Answer(response: response, addressClass: connection.addressClass)
        } catch let failure as ExchangeFailure {
            throw failure.error
        }
    }

    /// A failed exchange, and whether it failed before any byte of the response arrived.
    private struct ExchangeFailure: Error {
        var error: any Error
        var beforeAnyResponseByte: Bool
    }

    /// Writes the request and reads its response; the connection goes back to the pool only if the response
    /// came complete and the server keeps the connection open.
    private func exchange(
        _ bytes: [UInt8], method: HTTPMethod, maxBodyBytes: Int, on connection: HTTPConnection, deadline: Deadline,
        cancellation: RequestCancellation
    ) throws -> HTTPResponse {
        var parser = HTTPResponseParser(isHeadRequest: method == .head, maxBodyBytes: maxBodyBytes)
        do {
            try connection.write(bytes, deadline: deadline, cancellation: cancellation)
            try Self.readResponse(into: &parser, from: connection, deadline: deadline, cancellation: cancellation)
        } catch {
            connection.close()
            throw ExchangeFailure(error: error, beforeAnyResponseByte: !parser.hasReceivedBytes)
        }
        guard let response = parser.response else {
            connection.close()
            throw ExchangeFailure(error: HTTPTransportError(.badServerResponse), beforeAnyResponseByte: false)
        }
        if response.connectionReusable {
            pool.put(connection)
        } else {
            connection.close()
        }
        return HTTPResponse(statusCode: response.statusCode, headers: response.headers, body: response.body)
    }

    private static func readResponse(
        into parser: inout HTTPResponseParser, from connection: HTTPConnection, deadline: Deadline,
        cancellation: RequestCancellation
    ) throws {
        var buffer = [UInt8](repeating: 0, count: 32 << 10)
        while !parser.isComplete {
            let count = try buffer.withUnsafeMutableBytes { buffer in
                try connection.read(into: buffer, deadline: deadline, cancellation: cancellation)
            }
            if count == 0 {
                try parser.finishAtEndOfStream()
                return
            }
            try buffer.withUnsafeBytes { buffer in
                try parser.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
        }
    }

    /// A new connection to `origin`, directly or through `proxy`, with TLS for `https`. Directly, only to
    /// addresses `addresses` admits; through a proxy, which resolves the name itself, the origin's host is
    /// judged by its literal form (by ``RedirectPolicy/allows(_:by:from:startedAt:)``, before this).
    private func open(
        _ origin: HTTPOrigin, through proxy: ProxyConfiguration.Proxy?, addresses: AddressRequirement,
        deadline: Deadline, cancellation: RequestCancellation
    ) throws -> HTTPConnection {
        let connection: HTTPConnection
        if let proxy {
            let socket = try TCPConnector.connect(
                host: proxy.origin.host, port: proxy.origin.port, deadline: deadline, cancellation: cancellation)
            connection = HTTPConnection(
                origin: origin, socket: socket.socket,
                addressClass: AddressClass.literal(origin.host) ?? .publicInternet)
        } else {
            let socket = try TCPConnector.connect(
                host: origin.host, port: origin.port, deadline: deadline, cancellation: cancellation,
                admits: addresses.admits)
            connection = HTTPConnection(origin: origin, socket: socket.socket, addressClass: socket.addressClass)
        }
        do {
            if origin.scheme == .https {
                if let proxy {
                    try openTunnel(to: origin, through: proxy, on: connection, deadline: deadline,
                                   cancellation: cancellation)
                }
                try connection.startTLS(deadline: deadline, cancellation: cancellation)
            }
            return connection
        } catch {
            connection.close()
            throw error
        }
    }

    /// Asks the proxy for a tunnel to `origin`; any answer but 2xx means the origin cannot be reached.
    private func openTunnel(
        to origin: HTTPOrigin, through proxy: ProxyConfiguration.Proxy, on connection: HTTPConnection,
        deadline: Deadline, cancellation: RequestCancellation
    ) throws {
        try connection.write(
            RequestHead.connectBytes(to: origin, proxyAuthorization: proxy.authorization),
            deadline: deadline, cancellation: cancellation)
        var parser = HTTPResponseParser(isConnectRequest: true)
        try Self.readResponse(into: &parser, from: connection, deadline: deadline, cancellation: cancellation)
        guard let response = parser.response, (200..<300).contains(response.statusCode), !parser.hasExcessBytes else {
            throw HTTPTransportError(.cannotConnectToHost)
        }
    }
}
