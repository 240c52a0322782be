#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Accounts at Firebase Auth (email and password). Firebase checks passwords and issues tokens; the local
/// database keeps a row per Firebase user (keyed by `localId`, for the profile and favorites) and, per
/// session, the refresh token. ID tokens stay in memory; an expired or missing one is refreshed with the
/// stored refresh token, and when Firebase refuses that (revoked, user deleted or disabled) the session
/// ends and the caller gets `loginRequired`.
final class FirebaseAccountProvider: AccountProvider {
    private let client: FirebaseAuthClient
    private let store: AccountStore
    private let now: @Sendable () -> Date
    /// ID tokens by session token hash (not by session id, which SQLite may reuse).
    private let idTokens = Mutex<[[UInt8]: ProviderCredential]>([:])
    /// An ID token this close to expiry is refreshed before use.
    static let refreshMargin: TimeInterval = 30

    init(client: FirebaseAuthClient, store: AccountStore, now: @escaping @Sendable () -> Date = Date.init) {
        self.client = client
        self.store = store
        self.now = now
    }

    var kind: AccountProviderKind { .firebase }

    func register(email: String, password: String, profile: UserProfile, now: Date) async throws -> ProviderSignIn {
        let response = try await call {
            try await client.signUp(email: email, password: password, displayName: profile.displayName)
        }
        let user = User(
            id: response.localId, email: response.email ?? email, profile: profile, createdAt: now,
            provider: .firebase)
        return ProviderSignIn(user: user, passwordHash: nil, credential: credential(response))
    }

    func signIn(email: String, password: String) async throws -> ProviderSignIn {
        let response = try await call { try await client.signIn(email: email, password: password) }
        let credential = credential(response)
        let record = try await call { try await client.lookup(idToken: credential.idToken) }
        let createdAt = record?.createdAt.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) } ?? now()
        // Firebase keeps whatever another client set there: a name our own rules refuse (a bidirectional
        // override, a control character, too long) is not taken.
        let remoteName = record?.displayName ?? response.displayName
        let profile = UserProfile(displayName: remoteName.flatMap {
            AccountValidator.profileProblems(ProfileChanges(displayName: $0)).isEmpty ? $0 : nil
        })
        let user = User(
            id: response.localId, email: record?.email ?? response.email ?? email, profile: profile,
            createdAt: createdAt, provider: .firebase)
        return ProviderSignIn(user: user, passwordHash: nil, credential: credential)
    }

    func reauthenticate(_ user: User, password: String) async throws -> ProviderCredential? {
        let response = try await call { try await client.signIn(email: user.email, password: password) }
        guard response.localId == user.id else { throw MovieError.invalidCredentials }
        return credential(response)
    }

    func setPassword(_ newPassword: String, for user: User, reauthenticated: ProviderCredential?) async throws
        -> ProviderCredential?
    {
        guard let reauthenticated else { throw MovieError.loginRequired }
        let request = FirebaseWire.UpdateRequest(
            idToken: reauthenticated.idToken, password: newPassword, displayName: nil, deleteAttribute: nil,
            returnSecureToken: true)
        let response = try await call(passwordField: "newPassword") { try await client.update(request) }
        // Changing the password revokes earlier tokens; Firebase returns a fresh pair.
        guard let idToken = response.idToken, let refreshToken = response.refreshToken else {
            throw FirebaseAuthError.malformed(status: 200).movieError()
        }
        return ProviderCredential(
            idToken: idToken, refreshToken: refreshToken, expiresAt: expiry(response.expiresIn))
    }

    func deleteAccount(_ user: User, reauthenticated: ProviderCredential?) async throws {
        guard let reauthenticated else { throw MovieError.loginRequired }
        try await call { try await client.delete(idToken: reauthenticated.idToken) }
    }

    func profileWillChange(from old: UserProfile, to new: UserProfile, of user: User, session: AccountStore.Session)
        async throws
    {
        guard old.displayName != new.displayName else { return }
        try await withIDToken(session) { idToken in
            let request = FirebaseWire.UpdateRequest(
                idToken: idToken, password: nil, displayName: new.displayName,
                deleteAttribute: new.displayName == nil ? ["DISPLAY_NAME"] : nil, returnSecureToken: false)
            _ = try await client.update(request)
        }
    }

    func setCredential(_ credential: ProviderCredential?, for session: AccountStore.Session) {
        idTokens.withLock { $0[session.tokenHash] = credential }
    }

    // MARK: ID tokens

    /// Runs `body` with a valid ID token for `session`: refreshed first when missing or about to expire, and
    /// refreshed once more if Firebase refuses it. Ends the session when Firebase no longer honours it.
    func withIDToken<T: Sendable>(
        _ session: AccountStore.Session, _ body: (String) async throws -> T
    ) async throws -> T {
        var credential = try await validCredential(session, forceRefresh: false)
        do {
            return try await body(credential.idToken)
        } catch let error as FirebaseAuthError where error.isIDTokenRejected {
            credential = try await validCredential(session, forceRefresh: true)
        } catch let error as FirebaseAuthError {
            try await endIfRevoked(session, error)
            throw error.movieError()
        }
        do {
            return try await body(credential.idToken)
        } catch let error as FirebaseAuthError {
            try await endIfRevoked(session, error)
            throw error.movieError()
        }
    }

    /// A valid ID token for `session` (for Firestore): refreshed when about to expire, or when `forceRefresh`.
    func idToken(for session: AccountStore.Session, forceRefresh: Bool) async throws -> String {
        try await validCredential(session, forceRefresh: forceRefresh).idToken
    }

    private func validCredential(
        _ session: AccountStore.Session, forceRefresh: Bool
    ) async throws -> ProviderCredential {
        if !forceRefresh, let cached = idTokens.withLock({ $0[session.tokenHash] }),
            cached.expiresAt.timeIntervalSince(now()) > Self.refreshMargin
        {
            return cached
        }
        guard let refreshToken = session.refreshToken else {
            try await store.endSession(id: session.id)
            throw MovieError.loginRequired
        }
        let response: FirebaseWire.RefreshResponse
        do {
            response = try await client.refresh(refreshToken: refreshToken)
        } catch let error as FirebaseAuthError {
            try await endIfRevoked(session, error)
            throw error.movieError()
        }
        let credential = ProviderCredential(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresAt: expiry(response.expiresIn))
        if response.refreshToken != refreshToken {
            try await store.setRefreshToken(sessionID: session.id, response.refreshToken)
        }
        idTokens.withLock { $0[session.tokenHash] = credential }
        return credential
    }

    private func endIfRevoked(_ session: AccountStore.Session, _ error: FirebaseAuthError) async throws {
        guard error.endsSession else { return }
        idTokens.withLock { $0[session.tokenHash] = nil }
        try await store.endSession(id: session.id)
        throw MovieError.loginRequired
    }

    // MARK: Helpers

    private func credential(_ response: FirebaseWire.SignInResponse) -> ProviderCredential {
        ProviderCredential(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresAt: expiry(response.expiresIn))
    }

    /// `expiresIn` is a string of seconds; an unreadable one counts as already expired.
    private func expiry(_ expiresIn: String?) -> Date {
        now().addingTimeInterval(expiresIn.flatMap(TimeInterval.init) ?? 0)
    }

    /// Runs one call, mapping its failure to the domain error.
    @discardableResult
    private func call<T: Sendable>(
        passwordField: String = "password", _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch let error as FirebaseAuthError {
            throw error.movieError(passwordField: passwordField)
        }
    }
}
