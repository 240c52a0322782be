#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// Where and how favorites and profile fields sync: Cloud Firestore of `projectID`, with the signed-in
/// user's Firebase ID token. Built from `FIREBASE_PROJECT_ID` (with `FIREBASE_API_KEY`, which makes
/// accounts Firebase's), `FIRESTORE_EMULATOR_HOST` and `MOVIE_RPC_SYNC_INTERVAL`; `MOVIE_RPC_SYNC=0`
/// leaves it nil.
public struct SyncConfiguration: Sendable, Equatable {
    /// The Firebase project whose default database holds `users/{uid}/…`.
    public var projectID: String
    /// `host:port` of the Firestore emulator (plain HTTP), as Firebase's SDKs read `FIRESTORE_EMULATOR_HOST`.
    public var emulatorHost: String?
    /// A pull is due when the last one is older than this (`favorites.list`/`contains` ask for one then).
    public var pullInterval: TimeInterval
    /// Seconds per Firestore request.
    public var timeoutSeconds: Double
    /// How long a clean exit (or a logout) waits for pending changes to be pushed.
    public var exitDeadline: Duration = .seconds(2)
    /// Tombstones (removed favorites) older than this are deleted, remotely and locally. A device that
    /// stays offline longer than this may keep a favorite that another device removed.
    public var tombstoneMaxAge: TimeInterval = 30 * 24 * 3600

    public init(projectID: String, emulatorHost: String? = nil, pullInterval: TimeInterval = 60,
                timeoutSeconds: Double = 10) {
        self.projectID = projectID
        self.emulatorHost = emulatorHost
        self.pullInterval = pullInterval
        self.timeoutSeconds = timeoutSeconds
    }

    /// Project ids are lowercase letters, digits and hyphens (Google Cloud allows no more); anything else
    /// would change the request path.
    public static func isValidProjectID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9"))
                .contains(byte) || byte == UInt8(ascii: "-")
        }
    }

    /// `https://firestore.googleapis.com/v1/` or `http://HOST/v1/` for the emulator.
    var apiBase: String {
        if var host = emulatorHost?.trimmingWhitespace(), !host.isEmpty {
            for scheme in ["http://", "https://"] where host.lowercased().hasPrefix(scheme) {
                host = String(host.dropFirst(scheme.count))
            }
            while host.hasSuffix("/") { host.removeLast() }
            return "http://\(host)/v1/"
        }
        return "https://firestore.googleapis.com/v1/"
    }

    /// `projects/{p}/databases/(default)/documents`, the root every document name starts with.
    var documentsRoot: String { "projects/\(projectID)/databases/(default)/documents" }
}
