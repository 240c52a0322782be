import JSONRPC
import MovieCore

/// `account.delete`: after checking the password, deletes the logged-in account and everything that
/// belongs to it (favorites, sessions, login-throttle rows), then answers with the login route.
public struct AccountDelete: MovieMethod {
    public static let name = "account.delete"

    public struct Params: Decodable, Sendable {
        public var password: String
    }

    public struct Result: Encodable, Sendable {
        public var deleted: Bool
        public var route: Route
    }

    public static func handle(
        _ params: Params, server: ServerContext, request: RequestContext
    ) async throws -> Result {
        try await server.services.accounts.deleteAccount(password: params.password)
        return Result(deleted: true, route: .login)
    }
}
