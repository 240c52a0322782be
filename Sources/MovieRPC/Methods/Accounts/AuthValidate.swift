import JSONRPC
import MovieCore

/// `auth.validate`: checks the given form fields with the rules of `auth.register`, without side effects,
/// so a form can enable its submit button as the user types. Only the given fields are checked.
public struct AuthValidate: MovieMethod {
    public static let name = "auth.validate"

    public struct Params: Decodable, Sendable {
        public var email: String?
        public var password: String?
        public var passwordConfirmation: String?
        public var profile: ProfileParams?
    }

    public struct Result: Encodable, Sendable {
        public var valid: Bool
        public var fields: [FieldProblem]
    }

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let problems = server.services.accounts.validate(AccountValidator.Form(
            email: params.email, password: params.password, passwordConfirmation: params.passwordConfirmation,
            profile: params.profile?.changes))
        return Result(valid: problems.isEmpty, fields: problems)
    }
}
