import JSONRPC
import MovieCore

/// `auth.logout`: ends the current session (a no-op when nobody is logged in).
public struct AuthLogout: MovieMethod {
    public static let name = "auth.logout"
    public typealias Params = NoParams

    public struct Result: Encodable, Sendable {
        public var route: Route
    }

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        // Recorded first, so the event still carries the user.
        if await server.services.currentUserID() != nil {
            await server.services.record(.userLoggedOut)
        }
        // Pending sync changes get a short chance to reach Firestore under this user's token; what is left
        // stays queued for their next login, never pushed under another user.
        await server.services.sync?.flush(within: .seconds(2))
        try await server.services.accounts.logout()
        await server.services.sync?.userChanged()
        return Result(route: .login)
    }
}
