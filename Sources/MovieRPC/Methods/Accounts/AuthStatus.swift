import JSONRPC
import MovieCore

/// `auth.status`: who is logged in, and where the app should go (`main` or `login`).
public struct AuthStatus: MovieMethod {
    public static let name = "auth.status"
    public typealias Params = NoParams

    public struct Result: Encodable, Sendable {
        public var loggedIn: Bool
        public var user: UserWire?
        public var route: Route

        enum CodingKeys: String, CodingKey { case loggedIn, user, route }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(loggedIn, forKey: .loggedIn)
            try container.encode(user, forKey: .user)
            try container.encode(route, forKey: .route)
        }
    }

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        guard let user = try await server.services.accounts.currentUser() else {
            return Result(loggedIn: false, user: nil, route: .login)
        }
        return Result(loggedIn: true, user: UserWire(user), route: .main)
    }
}
