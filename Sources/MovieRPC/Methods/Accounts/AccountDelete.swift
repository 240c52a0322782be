import JSONRPC
import MovieCore

/// `account.delete`: after checking the password, deletes the logged-in account and everything that
/// belongs to it (favorites, sessions, login-throttle rows, and their events), then answers with the login
/// route and how many events went with it.
public struct AccountDelete: MovieMethod {
    public static let name = "account.delete"

    public struct Params: Decodable, Sendable {
        public var password: String
    }

    public struct Result: Encodable, Sendable {
        public var deleted: Bool
        public var route: Route
        /// The user's events deleted with the account.
        public var eventsDeleted: Int
    }

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let eventsDeleted = try await server.services.deleteAccount(password: params.password)
        return Result(deleted: true, route: .login, eventsDeleted: eventsDeleted)
    }
}
