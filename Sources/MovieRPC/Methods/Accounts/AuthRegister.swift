import JSONRPC
import MovieCore

/// `auth.register`: creates an account and logs it in. Every invalid field → -32010 with all of them and
/// nothing created; an email already registered (compared case-insensitively) → -32013.
public struct AuthRegister: MovieMethod {
    public static let name = "auth.register"

    public struct Params: Decodable, Sendable {
        public var email: String
        public var password: String
        public var passwordConfirmation: String?
        public var profile: ProfileParams?
    }

    public typealias Result = SignedInResult

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let user = try await server.services.accounts.register(
            email: params.email, password: params.password, passwordConfirmation: params.passwordConfirmation,
            profile: params.profile?.changes)
        await server.services.record(.userRegistered)
        await server.services.sync?.userChanged()
        return SignedInResult(user)
    }
}
