import JSONRPC
import MovieCore

/// `auth.login`: logs in. Unknown email and wrong password give the same -32012; after 5 failures for an
/// email, -32014 with `retryAfter` seconds until the lock passes.
public struct AuthLogin: MovieMethod {
    public static let name = "auth.login"

    public struct Params: Decodable, Sendable {
        public var email: String
        public var password: String
    }

    public typealias Result = SignedInResult

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let user = try await server.services.accounts.login(email: params.email, password: params.password)
        await server.services.record(.userLoggedIn)
        await server.services.sync?.userChanged()
        return SignedInResult(user)
    }
}
