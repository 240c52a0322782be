import Foundation
import HTTPTransport
import Testing
@testable import TMDB

@Suite("Error mapping")
struct ErrorMappingTests {
    /// Sends `endpoint` and returns the thrown TMDBError, or nil when it succeeded.
    private func failure<R>(_ client: TMDBClient, _ endpoint: Endpoint<R>) async -> TMDBError? {
        do {
            _ = try await client.send(endpoint)
            return nil
        } catch {
            return error
        }
    }

    @Test func unauthorized401() async {
        let (client, _) = makeClient(.json(401, Fixtures.error401))
        let error = await failure(client, .movieGenres())
        #expect(error == .unauthorized(statusMessage: "Invalid API key: You must be granted a valid key."))
        #expect(error?.isRetryable == false)
    }

    @Test func unauthorizedWithoutStatusBody() async {
        let (client, _) = makeClient(.json(401, "<html>nope</html>"))
        #expect(await failure(client, .movieGenres()) == .unauthorized(statusMessage: "HTTP 401 Unauthorized"))
    }

    @Test func notFound404() async {
        let (client, _) = makeClient(.json(404, Fixtures.error404))
        #expect(await failure(client, .movieDetails(id: 9_999_999)) == .notFound)
    }

    @Test func rateLimitedWithoutRetryDecorator() async {
        let (client, _) = makeClient(.json(429, Fixtures.error429, headers: ["retry-after": "3"]))
        #expect(await failure(client, .popularMovies()) == .rateLimited(retryAfter: 3))
    }

    @Test func retryAfterInHTTPDateFormIsIgnored() async {
        let headers = ["Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"]
        let (client, _) = makeClient(.json(429, Fixtures.error429, headers: headers))
        #expect(await failure(client, .popularMovies()) == .rateLimited(retryAfter: nil))
    }

    @Test(arguments: [(500, Fixtures.error500, 11), (503, Fixtures.error503, 9)])
    func serverErrorsAreRetryable(status: Int, body: String, statusCode: Int) async throws {
        let (client, _) = makeClient(.json(status, body))
        let error = try #require(await failure(client, .popularMovies()))
        guard case .server(let httpStatus, let code, let message, let retryable) = error else {
            Issue.record("expected .server, got \(error)")
            return
        }
        #expect(httpStatus == status)
        #expect(code == statusCode)
        #expect(message?.isEmpty == false)
        #expect(retryable)
        #expect(error.isRetryable)
    }

    @Test func clientError400IsNotRetryable() async {
        let (client, _) = makeClient(.json(400, Fixtures.error400InvalidPage))
        let error = await failure(client, .popularMovies(page: 501))
        #expect(error == .server(
            httpStatus: 400, statusCode: 22,
            message: "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.",
            retryable: false
        ))
    }

    @Test func gatewayErrorWithoutBody() async {
        let (client, _) = makeClient(.json(502, ""))
        #expect(await failure(client, .latestMovie())
            == .server(httpStatus: 502, statusCode: nil, message: nil, retryable: true))
    }

    @Test(arguments: ["{\"genres\": [", "not json", "", "[1, 2]", "{\"genres\": \"Action\"}"])
    func malformedBodyIsInvalidResponse(body: String) async {
        let (client, _) = makeClient(.json(200, body))
        #expect(await failure(client, .movieGenres()) == .invalidResponse)
    }

    @Test func transportOfflineIsOffline() async {
        let (client, _) = makeClient(.failure(HTTPTransportError.offline(code: URLError.Code.cannotFindHost.rawValue)))
        #expect(await failure(client, .movieGenres()) == .offline)
        let (client2, _) = makeClient(.failure(URLError(.timedOut)))
        #expect(await failure(client2, .movieGenres()) == .offline)
        let (client3, _) = makeClient(.failure(HTTPTransportError.other(code: -1011)))
        #expect(await failure(client3, .movieGenres()) == .offline)
    }

    @Test func cancellationIsCancelled() async {
        let (client, _) = makeClient(.failure(CancellationError()))
        #expect(await failure(client, .movieGenres()) == .cancelled)
        let (client2, _) = makeClient(.failure(URLError(.cancelled)))
        #expect(await failure(client2, .movieGenres()) == .cancelled)
    }

    @Test func transportErrorClassification() {
        #expect(HTTPTransportError(URLError(.cannotConnectToHost)) == .offline(code: -1004))
        #expect(HTTPTransportError(URLError(.notConnectedToInternet)) == .offline(code: -1009))
        #expect(HTTPTransportError(URLError(.networkConnectionLost)) == .offline(code: -1005))
        #expect(HTTPTransportError(URLError(.cancelled)) == .cancelled)
        #expect(HTTPTransportError(CancellationError()) == .cancelled)
        #expect(HTTPTransportError(URLError(.unsupportedURL)) == .other(code: -1002))
    }

    @Test(arguments: [401, 403, 500])
    func apiKeyEchoedByUpstreamIsRedacted(status: Int) async throws {
        let (client, _) = makeClient(.json(status, Fixtures.errorEchoing(TestSecrets.apiKey)))
        let error = try #require(await failure(client, .movieDetails(id: 1)))
        let texts = ["\(error)", String(reflecting: error), error.localizedDescription, String(describing: [error])]
        for text in texts {
            #expect(!text.contains(TestSecrets.apiKey), "\(text)")
        }
        #expect("\(error)".contains("<redacted>"))
    }

    @Test func bearerTokenEchoedByUpstreamIsRedacted() async throws {
        let (client, _) = makeClient(
            .json(401, Fixtures.errorEchoing(TestSecrets.token)), credential: .accessToken(TestSecrets.token)
        )
        let error = try #require(await failure(client, .movieGenres()))
        #expect(!"\(error)".contains(TestSecrets.token))
        #expect(error == .unauthorized(statusMessage: "Invalid API key <redacted>: not granted."))
    }

    @Test func realRefusedConnectionIsOfflineAndHidesTheKey() async throws {
        // Port 1 on loopback refuses at once (URLError -1004); no network needed.
        let base = try #require(URL(string: "http://127.0.0.1:1/3"))
        let client = TMDBClient(
            baseURL: base, credential: .apiKey(TestSecrets.apiKey), http: SocketHTTPClient(timeoutSeconds: 30)
        )
        let error = try #require(await failure(client, .movieGenres()))
        #expect(error == .offline)
        #expect(!"\(error)".contains(TestSecrets.apiKey))
        #expect(!error.localizedDescription.contains(TestSecrets.apiKey))
    }
}
