import HTTPTransport
import TMDB

/// A Firebase Auth failure as received, before it is mapped to a `MovieError` (``movieError(passwordField:)``,
/// the one mapping). Holds no URL, key, token or password.
enum FirebaseAuthError: Error, Equatable {
    /// An error body: `code` is the message's prefix before `" : "` (`WEAK_PASSWORD`), `detail` what follows.
    case api(status: Int, code: String, detail: String?)
    /// No HTTP response.
    case transport(HTTPTransportError)
    /// A response that is neither the documented success body nor an error body.
    case malformed(status: Int)
    /// The configured emulator host does not make a valid URL.
    case misconfigured

    /// Splits an error message such as `"WEAK_PASSWORD : Password should be at least 6 characters"`.
    static func api(status: Int, message: String) -> FirebaseAuthError {
        guard let range = message.firstRange(of: " : ") else {
            return .api(status: status, code: message.trimmingWhitespace(), detail: nil)
        }
        let detail = message[range.upperBound...].trimmingWhitespace()
        return .api(
            status: status, code: message[..<range.lowerBound].trimmingWhitespace(),
            detail: detail.isEmpty ? nil : detail)
    }

    /// Codes meaning the stored tokens no longer stand for a signed-in user.
    static let sessionEndingCodes: Set<String> = [
        "INVALID_ID_TOKEN", "TOKEN_EXPIRED", "USER_NOT_FOUND", "USER_DISABLED", "INVALID_REFRESH_TOKEN",
        "MISSING_REFRESH_TOKEN", "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", "INVALID_GRANT_TYPE",
    ]

    /// Whether an ID token was refused for its age or validity (worth one refresh and retry).
    var isIDTokenRejected: Bool {
        guard case .api(_, let code, _) = self else { return false }
        return code == "INVALID_ID_TOKEN" || code == "TOKEN_EXPIRED"
    }

    /// Whether the session is over at Firebase (the user must log in again).
    var endsSession: Bool {
        guard case .api(_, let code, _) = self else { return false }
        return Self.sessionEndingCodes.contains(code)
    }

    /// The domain error, with the same codes the local provider gives. `passwordField` names the field a
    /// `WEAK_PASSWORD` is reported on (`password`, or `newPassword` for a change).
    func movieError(passwordField: String = "password") -> any Error {
        switch self {
        case .transport(.cancelled):
            return CancellationError()
        case .transport:
            return MovieError.upstream(httpStatus: 503, retryable: true, message: "The sign-in service is unreachable")
        case .malformed(let status):
            return MovieError.upstream(
                httpStatus: status, retryable: true, message: "The sign-in service sent an unexpected answer")
        case .misconfigured:
            return MovieError.upstream(
                httpStatus: 0, retryable: false, message: "The sign-in service address is misconfigured")
        case .api(let status, let code, let detail):
            return Self.map(status: status, code: code, detail: detail, passwordField: passwordField)
        }
    }

    private static func map(status: Int, code: String, detail: String?, passwordField: String) -> any Error {
        func invalid(_ field: String, _ problem: String) -> MovieError {
            .validationFailed([FieldProblem(field: field, problem: problem)])
        }
        func upstream(retryable: Bool, _ message: String) -> MovieError {
            .upstream(httpStatus: status, retryable: retryable, message: message)
        }
        switch code {
        case "EMAIL_EXISTS":
            return MovieError.emailTaken
        case "INVALID_LOGIN_CREDENTIALS", "EMAIL_NOT_FOUND", "INVALID_PASSWORD", "USER_DISABLED":
            return MovieError.invalidCredentials
        case "WEAK_PASSWORD":
            return invalid(passwordField, weakPasswordProblem(detail))
        case "INVALID_EMAIL":
            return invalid("email", AccountValidator.Message.emailInvalid)
        case "MISSING_EMAIL":
            return invalid("email", AccountValidator.Message.required)
        case "MISSING_PASSWORD":
            return invalid(passwordField, AccountValidator.Message.required)
        case "TOO_MANY_ATTEMPTS_TRY_LATER":
            return MovieError.tooManyAttempts(retryAfter: 60)
        case _ where sessionEndingCodes.contains(code):
            return MovieError.loginRequired
        case "OPERATION_NOT_ALLOWED", "PASSWORD_LOGIN_DISABLED":
            return upstream(retryable: false, "Email and password sign-in is not enabled for this Firebase project")
        case "PERMISSION_DENIED", "API_KEY_INVALID", "INVALID_API_KEY", "API_KEY_NOT_VALID":
            return MovieError.upstreamUnauthorized("The sign-in service rejected the API key")
        default:
            if status == 429 { return upstream(retryable: true, "The sign-in service is busy; try again") }
            if status >= 500 { return upstream(retryable: true, "The sign-in service failed; try again") }
            return upstream(retryable: false, "The sign-in service refused the request")
        }
    }

    /// "is too weak: Password should be at least 6 characters" — Firebase's detail is a fixed English sentence;
    /// it is kept only when short and plain.
    private static func weakPasswordProblem(_ detail: String?) -> String {
        guard let detail, detail.count <= 120,
            detail.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f })
        else { return "is too weak for the sign-in service" }
        return "is too weak: \(detail)"
    }
}
