import JSONRPC
import MovieCore

/// `sync.now`: one sync cycle at once (after the one running, if any): pulls what changed remotely,
/// applies it under the conflict rule, pushes the outbox. `$/progress` when given a `progressToken`.
/// Nobody logged in through Firebase → -32011; sync off → -32031 (not retryable); Firestore unreachable
/// or refusing → -32031 with the reason (the local data is untouched and the outbox kept).
public struct SyncNow: MovieMethod {
    public static let name = "sync.now"

    public struct Params: Decodable, Sendable {
        public var progressToken: CatalogSync.ProgressToken?
    }

    public struct Result: Encodable, Sendable {
        public var pushed: Int
        public var pulled: Int
        public var conflicts: Int
        public var pending: Int
    }

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        guard let sync = server.services.sync else {
            throw MovieError.upstream(
                httpStatus: 0, retryable: false,
                message: "Sync is off: it needs FIREBASE_API_KEY, FIREBASE_PROJECT_ID and a Firebase login")
        }
        var progress: SyncEngine.ProgressHandler?
        if let token = params.progressToken {
            progress = { @Sendable done, total, message in
                let value = CatalogSync.Progress.Value(done: done, total: total, message: message)
                request.notify("$/progress", CatalogSync.Progress(token: token, value: value))
            }
        }
        do {
            let report = try await sync.syncNow(progress: progress)
            return Result(
                pushed: report.pushed, pulled: report.pulled, conflicts: report.conflicts, pending: report.pending)
        } catch {
            throw movieError(error)
        }
    }

    /// The one mapping of a failed cycle to a domain error (and so to a wire error).
    static func movieError(_ failure: SyncEngine.Failure) -> MovieError {
        switch failure {
        case .notLoggedIn, .sessionEnded: return .loginRequired
        case .offline(let reason): return .upstream(httpStatus: 503, retryable: true, message: reason)
        case .refused(let reason): return .upstream(httpStatus: 403, retryable: false, message: reason)
        case .storage(let problem): return .storage(problem)
        }
    }
}
