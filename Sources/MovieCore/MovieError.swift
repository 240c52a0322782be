/// Everything the domain can refuse or fail with. The RPC layer maps each case to one wire error, in one
/// place; messages here are safe to show (no SQL, paths, keys or passwords).
public enum MovieError: Error, Sendable, Equatable {
    /// Input failed validation; every failing field is listed.
    case validationFailed([FieldProblem])
    /// The method needs a logged-in user.
    case loginRequired
    /// Unknown email or wrong password (deliberately indistinguishable).
    case invalidCredentials
    case emailTaken
    /// Too many failed logins for one email; retry after this many seconds.
    case tooManyAttempts(retryAfter: Int)
    case alreadyFavorite(movieID: Int)
    /// `what` names the missing thing for the message, e.g. "movie 550".
    case notFound(String)
    /// Offline and nothing cached for `what` (e.g. "popular movies page 2").
    case offlineNotCached(String)
    /// The upstream service failed with an HTTP status (or none: 0 for malformed answers).
    case upstream(httpStatus: Int, retryable: Bool, message: String)
    /// The upstream service rejected our credential.
    case upstreamUnauthorized(String)
    case rateLimited(retryAfter: Double?)
    /// The local database could not be written or read.
    case storage(StorageProblem)
    /// The embedded demo catalog has no such data (`what`: "credits", "people" …); nothing is invented.
    case unavailableInDemo(String)
}

/// One invalid field and what is wrong with it, in words a form can show.
public struct FieldProblem: Sendable, Equatable, Codable {
    public var field: String
    public var problem: String

    public init(field: String, problem: String) {
        self.field = field
        self.problem = problem
    }
}

/// Why storage failed, in terms a user can act on.
public enum StorageProblem: String, Sendable, Equatable {
    case readOnly
    case diskFull
    case corrupt
    case busy
    case other

    public var message: String {
        switch self {
        case .readOnly: return "The data directory is read-only; changes cannot be saved"
        case .diskFull: return "The disk is full; changes cannot be saved"
        case .corrupt: return "The local database is damaged"
        case .busy: return "The local database is busy; try again"
        case .other: return "The local database could not be used"
        }
    }
}
