#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

extension AccountService {
    /// The Firebase user logged in now and a valid ID token of theirs (refreshed when about to expire, or
    /// when `forceRefresh`, after Firestore refused it); nil when nobody is logged in through Firebase.
    /// `loginRequired` when Firebase no longer honours the session (which then ends).
    func syncCredential(forceRefresh: Bool) async throws -> (userID: String, idToken: String)? {
        guard let firebase = provider as? FirebaseAccountProvider, let current = try await currentSession() else {
            return nil
        }
        let token = try await firebase.idToken(for: current.session, forceRefresh: forceRefresh)
        return (current.user.user.id, token)
    }
}

/// What sync needs to do when an account goes: set by the sync engine, run by ``AccountService``.
final class AccountSyncHooks: Sendable {
    typealias BeforeDelete = @Sendable (_ userID: String, _ idToken: String?) async throws -> Void
    private let beforeDelete = Mutex<BeforeDelete?>(nil)

    func setBeforeDelete(_ hook: BeforeDelete?) { beforeDelete.withLock { $0 = hook } }

    /// Deletes the user's remote data before the account itself goes; throws (and the account stays)
    /// when that fails, so the user can try again.
    func accountWillBeDeleted(userID: String, idToken: String?) async throws {
        guard let hook = beforeDelete.withLock({ $0 }) else { return }
        try await hook(userID, idToken)
    }
}
