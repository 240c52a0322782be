import JSONRPC
import MovieCore

/// `account.update`: changes the profile and/or the password. A new password needs `currentPassword`
/// (-32012 when wrong) and ends every other session.
public struct AccountUpdate: MovieMethod {
    public static let name = "account.update"

    public struct Params: Decodable, Sendable {
        public var profile: ProfileParams?
        public var newPassword: String?
        public var currentPassword: String?
    }

    public struct Result: Encodable, Sendable {
        public var user: UserWire
    }

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let user = try await server.services.accounts.update(
            profile: params.profile?.changes, newPassword: params.newPassword, currentPassword: params.currentPassword)
        return Result(user: UserWire(user))
    }
}
