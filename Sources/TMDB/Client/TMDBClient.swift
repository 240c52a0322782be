#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// A TMDB v3 client: sends an ``Endpoint`` and decodes its response, throwing only ``TMDBError``.
///
/// Retry and caching are not built in; wrap the ``HTTPClient`` with decorators such as
/// ``RetryingHTTPClient`` (or use ``standard(credential:timeoutSeconds:)``). Identical fetches are
/// coalesced above this layer, by the catalog repository, once per cache key.
public struct TMDBClient: Sendable {
    /// TMDB's production API base, including the `/3` version prefix.
    public static let defaultBaseURL = URL(string: "https://api.themoviedb.org/3")! // safe: constant, valid URL

    /// The highest page number TMDB serves on list endpoints (above it: HTTP 400, status_code 22).
    public static let maxPage = 500

    /// The API base URL, including `/3`.
    public let baseURL: URL
    /// Removes the credential from upstream messages; use it for any log line that may contain one.
    public let redactor: SecretRedactor
    private let credential: TMDBCredential
    private let http: any HTTPClient

    /// Creates a client.
    /// - Parameters:
    ///   - baseURL: the API base including `/3`; defaults to `https://api.themoviedb.org/3`.
    ///   - credential: the API key or read access token.
    ///   - http: the transport, possibly wrapped in decorators.
    public init(baseURL: URL = TMDBClient.defaultBaseURL, credential: TMDBCredential, http: any HTTPClient) {
        self.baseURL = baseURL
        self.credential = credential
        self.http = http
        self.redactor = SecretRedactor(credential: credential)
    }

    /// A client over ``SocketHTTPClient`` that paces requests within TMDB's rate limit and retries HTTP 429.
    public static func standard(credential: TMDBCredential, timeoutSeconds: Double = 10) -> TMDBClient {
        let transport = SocketHTTPClient(timeoutSeconds: timeoutSeconds)
        return TMDBClient(
            credential: credential, http: RetryingHTTPClient(wrapping: PacingHTTPClient(wrapping: transport)))
    }

    /// Sends `endpoint` and decodes its response.
    /// - Throws: ``TMDBError`` only; messages in it never contain the credential.
    public func send<R>(_ endpoint: Endpoint<R>) async throws(TMDBError) -> R {
        do {
            let response = try await http.send(try request(for: endpoint))
            guard response.isSuccess else {
                throw UnexpectedHTTPStatus(response: response)
            }
            return try JSONDecoder().decode(R.self, from: response.body)
        } catch {
            throw TMDBErrorMapping.map(error, redactor: redactor)
        }
    }

    /// Builds the HTTP request for `endpoint`: base URL + path + query (+ `api_key`), `Accept: application/json`
    /// (+ `Authorization: Bearer …`).
    func request<R>(for endpoint: Endpoint<R>) throws -> HTTPRequest {
        var items = endpoint.queryItems
        var headers = ["Accept": "application/json"]
        switch credential {
        case .apiKey(let key):
            items.append(URLQueryItem(name: "api_key", value: key))
        case .accessToken(let token):
            headers["Authorization"] = "Bearer \(token)"
        }

        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw TMDBError.invalidResponse
        }
        var basePath = components.path
        while basePath.hasSuffix("/") {
            basePath.removeLast()
        }
        let path = endpoint.path.hasPrefix("/") ? endpoint.path : "/" + endpoint.path
        // The plain `path` setter percent-encodes as needed (the percent-encoded setter would trap).
        components.path = basePath + path
        components.percentEncodedQuery = items.isEmpty ? nil : QueryEncoding.encode(items)
        guard let url = components.url else {
            // Only reachable with a malformed endpoint path; report without echoing the URL.
            throw TMDBError.invalidResponse
        }
        return HTTPRequest(url: url, method: .get, headers: headers)
    }
}

extension TMDBClient: CustomStringConvertible, CustomDebugStringConvertible {
    /// Base URL and credential kind; never the secret.
    public var description: String { "TMDBClient(\(baseURL.absoluteString), \(credential))" }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
