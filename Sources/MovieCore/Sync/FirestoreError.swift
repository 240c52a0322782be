import HTTPTransport

/// A Firestore REST failure as received. Holds no token, URL or upstream text beyond the status name
/// (`PERMISSION_DENIED`), so it can be shown in `sync.status`.
enum FirestoreError: Error, Equatable, Sendable {
    /// No HTTP response (network down, emulator stopped, timeout).
    case transport(HTTPTransportError)
    /// An error response: the HTTP status and Firestore's status name.
    case api(httpStatus: Int, status: String)
    /// A 2xx answer that is not the documented body.
    case malformed(httpStatus: Int)

    /// The ID token was refused as expired or invalid (worth one refresh and one retry).
    var isUnauthenticated: Bool {
        if case .api(let http, let status) = self { return http == 401 || status == "UNAUTHENTICATED" }
        return false
    }

    /// A transaction lost to a concurrent one on the same documents (worth trying again at once).
    var isAborted: Bool {
        if case .api(let http, let status) = self { return http == 409 || status == "ABORTED" }
        return false
    }

    /// The security rules refused the request.
    var isPermissionDenied: Bool {
        if case .api(let http, let status) = self { return http == 403 || status == "PERMISSION_DENIED" }
        return false
    }

    /// Whether trying again later may work without anything changing here: the network, 5xx, 429,
    /// aborted or contended transactions.
    var isTransient: Bool {
        switch self {
        case .transport(let error): return error != .cancelled
        case .api(let http, let status):
            return http >= 500 || http == 429 || http == 408
                || ["UNAVAILABLE", "RESOURCE_EXHAUSTED", "ABORTED", "DEADLINE_EXCEEDED", "INTERNAL"].contains(status)
        case .malformed: return true
        }
    }

    /// In plain words, for `sync.status` and logs.
    var description: String {
        switch self {
        case .transport(.cancelled): return "Cancelled"
        case .transport: return "Cloud Firestore cannot be reached (offline, or the service is down)"
        case .api(let http, let status):
            if isPermissionDenied {
                return "Cloud Firestore refused access (HTTP \(http) \(status)): the security rules do not allow it"
            }
            if isUnauthenticated { return "Cloud Firestore did not accept the sign-in (HTTP \(http) \(status))" }
            if http == 429 { return "Cloud Firestore is rate limiting (HTTP 429); retrying later" }
            if http >= 500 { return "Cloud Firestore failed (HTTP \(http) \(status)); retrying later" }
            return "Cloud Firestore refused the request (HTTP \(http) \(status))"
        case .malformed(let http):
            return "Cloud Firestore sent an unexpected answer (HTTP \(http))"
        }
    }
}
