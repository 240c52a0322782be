#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport
import TMDB

/// The Firebase Auth REST calls accounts need, as data in and data out. Every failure is a
/// ``FirebaseAuthError``; requests are never logged (their URL carries the API key, their bodies passwords
/// and tokens).
struct FirebaseAuthClient: Sendable {
    let configuration: FirebaseConfiguration
    let http: any HTTPClient

    /// `accounts:signUp`.
    func signUp(email: String, password: String, displayName: String?) async throws -> FirebaseWire.SignInResponse {
        try await post(
            .accounts("signUp"),
            json: FirebaseWire.PasswordRequest(email: email, password: password, displayName: displayName))
    }

    /// `accounts:signInWithPassword`.
    func signIn(email: String, password: String) async throws -> FirebaseWire.SignInResponse {
        try await post(
            .accounts("signInWithPassword"), json: FirebaseWire.PasswordRequest(email: email, password: password))
    }

    /// `accounts:lookup` by ID token: the user's record, or nil when Firebase lists none.
    func lookup(idToken: String) async throws -> FirebaseWire.UserRecord? {
        let response: FirebaseWire.LookupResponse = try await post(
            .accounts("lookup"), json: FirebaseWire.IDTokenRequest(idToken: idToken))
        return response.users?.first
    }

    /// `accounts:update`.
    func update(_ request: FirebaseWire.UpdateRequest) async throws -> FirebaseWire.UpdateResponse {
        try await post(.accounts("update"), json: request)
    }

    /// `accounts:delete`.
    func delete(idToken: String) async throws {
        let _: Empty = try await post(.accounts("delete"), json: FirebaseWire.IDTokenRequest(idToken: idToken))
    }

    /// Secure Token refresh, form-encoded as Firebase's SDKs send it.
    func refresh(refreshToken: String) async throws -> FirebaseWire.RefreshResponse {
        let encoded = PercentEncoding.encode(refreshToken, keeping: PercentEncoding.isUnreserved)
        let body = Data("grant_type=refresh_token&refresh_token=\(encoded)".utf8)
        return try await send(.token, body: body, contentType: "application/x-www-form-urlencoded")
    }

    // MARK: Transport

    private struct Empty: Decodable {}

    private func post<Body: Encodable, Response: Decodable>(_ endpoint: FirebaseEndpoint, json body: Body) async throws
        -> Response
    {
        let data: Data
        do {
            data = try JSONEncoder().encode(body)
        } catch {
            throw FirebaseAuthError.malformed(status: 0)
        }
        return try await send(endpoint, body: data, contentType: "application/json")
    }

    private func send<Response: Decodable>(_ endpoint: FirebaseEndpoint, body: Data, contentType: String) async throws
        -> Response
    {
        guard let url = configuration.url(endpoint) else { throw FirebaseAuthError.misconfigured }
        let request = HTTPRequest(
            url: url, method: .post, headers: ["Content-Type": contentType, "Accept": "application/json"], body: body)
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch {
            throw FirebaseAuthError.transport(HTTPTransportError(error))
        }
        guard response.isSuccess else {
            throw Self.error(from: response, redactor: SecretRedactor(secrets: [configuration.apiKey]))
        }
        do {
            return try JSONDecoder().decode(Response.self, from: response.body)
        } catch {
            throw FirebaseAuthError.malformed(status: response.statusCode)
        }
    }

    /// The error of a non-2xx response: Firebase's message code when the body has one. The message is
    /// stripped of the API key first: its detail may reach the client (``FirebaseAuthError``'s weak-password
    /// problem), and an emulator or proxy may echo the request.
    static func error(from response: HTTPResponse, redactor: SecretRedactor) -> FirebaseAuthError {
        guard let body = try? JSONDecoder().decode(FirebaseWire.ErrorResponse.self, from: response.body) else {
            return .api(status: response.statusCode, code: "HTTP_\(response.statusCode)", detail: nil)
        }
        let message = redactor.redact(
            String((body.error.message ?? body.error.status ?? "HTTP_\(response.statusCode)").prefix(1024)))
        if message.hasPrefix("API key not valid") || message.hasPrefix("API_KEY_INVALID") {
            return .api(status: response.statusCode, code: "API_KEY_INVALID", detail: nil)
        }
        return .api(status: response.statusCode, message: message)
    }
}
