import JSONRPC
import MovieCore

/// movie-rpc's application error codes, fixed so that every client can rely on them.
extension ErrorCode {
    public static let validationFailed = ErrorCode(rawValue: -32010)
    public static let loginRequired = ErrorCode(rawValue: -32011)
    public static let invalidCredentials = ErrorCode(rawValue: -32012)
    public static let emailTaken = ErrorCode(rawValue: -32013)
    public static let tooManyAttempts = ErrorCode(rawValue: -32014)
    public static let alreadyFavorite = ErrorCode(rawValue: -32020)
    public static let notFound = ErrorCode(rawValue: -32021)
    public static let offlineNotCached = ErrorCode(rawValue: -32030)
    public static let upstreamError = ErrorCode(rawValue: -32031)
    public static let upstreamUnauthorized = ErrorCode(rawValue: -32032)
    public static let rateLimited = ErrorCode(rawValue: -32033)
    public static let unavailableInDemo = ErrorCode(rawValue: -32034)
    public static let storageError = ErrorCode(rawValue: -32040)
}

/// The one place where errors become wire errors. Anything not listed is an internal error whose
/// details go to the log, never to the client.
public enum WireErrors {
    public static func map(_ error: any Error) -> ResponseError {
        switch error {
        case let error as ResponseError:
            return error
        case let error as MovieError:
            return map(error)
        case is CancellationError:
            return .cancelled
        default:
            Log.error("Internal error: \(String(reflecting: type(of: error)))")
            return .internalError
        }
    }

    public static func map(_ error: MovieError) -> ResponseError {
        switch error {
        case .validationFailed(let problems):
            let fields = JSONValue.array(problems.map { ["field": .string($0.field), "problem": .string($0.problem)] })
            let summary = problems.map { "\($0.field) \($0.problem)" }.joined(separator: "; ")
            return ResponseError(
                code: .validationFailed, message: "Validation failed: \(summary)",
                data: ["kind": "validationFailed", "fields": fields])
        case .loginRequired:
            return ResponseError(code: .loginRequired, message: "Log in first", data: ["kind": "loginRequired"])
        case .invalidCredentials:
            return ResponseError(
                code: .invalidCredentials, message: "Email or password is incorrect",
                data: ["kind": "invalidCredentials"])
        case .emailTaken:
            return ResponseError(
                code: .emailTaken, message: "An account with this email already exists", data: ["kind": "emailTaken"])
        case .tooManyAttempts(let retryAfter):
            return ResponseError(
                code: .tooManyAttempts, message: "Too many failed attempts; try again in \(retryAfter) s",
                data: ["kind": "tooManyAttempts", "retryAfter": .int(retryAfter)])
        case .alreadyFavorite(let movieID):
            return ResponseError(
                code: .alreadyFavorite, message: "Movie \(movieID) is already a favorite",
                data: ["kind": "alreadyFavorite", "movieId": .int(movieID)])
        case .notFound(let what):
            return ResponseError(code: .notFound, message: "Not found: \(what)", data: ["kind": "notFound"])
        case .offlineNotCached(let what):
            return ResponseError(
                code: .offlineNotCached, message: "Offline, and \(what) is not cached",
                data: ["kind": "offlineNotCached"])
        case .upstream(let status, let retryable, let message):
            return ResponseError(
                code: .upstreamError, message: message,
                data: ["kind": "upstreamError", "httpStatus": .int(status), "retryable": .bool(retryable)])
        case .upstreamUnauthorized(let message):
            return ResponseError(
                code: .upstreamUnauthorized, message: message, data: ["kind": "upstreamUnauthorized"])
        case .rateLimited(let retryAfter):
            var data: [String: JSONValue] = ["kind": "rateLimited"]
            if let retryAfter { data["retryAfter"] = .double(retryAfter) }
            return ResponseError(
                code: .rateLimited, message: "TMDB rate limit reached; try again later", data: .object(data))
        case .unavailableInDemo(let what):
            return ResponseError(
                code: .unavailableInDemo,
                message: "\(what) not in the demo catalog; set TMDB_ACCESS_TOKEN or TMDB_API_KEY for the live catalog",
                data: ["kind": "unavailableInDemo"])
        case .storage(let problem):
            return ResponseError(
                code: .storageError, message: problem.message,
                data: ["kind": "storageError", "reason": .string(problem.rawValue)])
        }
    }
}
