#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where credentials are checked: this machine's database (``LocalAccountProvider``) or Firebase Auth
/// (``FirebaseAccountProvider``). ``AccountService`` does everything the two have in common (validation,
/// throttling, the session singleton, the local user row and favorites) and asks the provider only what
/// differs. Every failure is a `MovieError` with the same meaning for both: `invalidCredentials`,
/// `emailTaken`, `validationFailed`, `tooManyAttempts`, `loginRequired`, or a retryable `upstream` error.
protocol AccountProvider: Sendable {
    var kind: AccountProviderKind { get }

    /// Creates the account. Local: hashes the password (the service stores the row); Firebase: `signUp`.
    func register(email: String, password: String, profile: UserProfile, now: Date) async throws -> ProviderSignIn

    /// Checks the credentials of an existing account; throws `invalidCredentials` for an unknown email and
    /// for a wrong password alike, after comparable work.
    func signIn(email: String, password: String) async throws -> ProviderSignIn

    /// Checks the logged-in user's password again before a sensitive change.
    func reauthenticate(_ user: User, password: String) async throws -> ProviderCredential?

    /// Sets a new password (after ``reauthenticate(_:password:)``); returns the credential to keep, if any.
    func setPassword(_ newPassword: String, for user: User, reauthenticated: ProviderCredential?) async throws
        -> ProviderCredential?

    /// Deletes the account at the provider (after ``reauthenticate(_:password:)``).
    func deleteAccount(_ user: User, reauthenticated: ProviderCredential?) async throws

    /// Tells the provider about a profile change it keeps a copy of (Firebase: the display name).
    func profileWillChange(from old: UserProfile, to new: UserProfile, of user: User, session: AccountStore.Session)
        async throws

    /// Keeps `credential` in memory for `session` (the ID token is never stored), or forgets it (nil).
    func setCredential(_ credential: ProviderCredential?, for session: AccountStore.Session)
}

/// What a provider returns for a registration or a login.
struct ProviderSignIn: Sendable {
    /// The user as the provider knows them (for Firebase, the row to create or refresh locally).
    var user: User
    /// Local registrations: the hash to store.
    var passwordHash: String?
    /// Firebase: the token pair.
    var credential: ProviderCredential?
}

/// A Firebase token pair. Both are secrets: never logged, never sent to clients; only the refresh token
/// is stored (in `sessions.refresh_token`).
struct ProviderCredential: Sendable, Equatable {
    var idToken: String
    var refreshToken: String
    /// When the ID token expires (Firebase's `expiresIn` after issue).
    var expiresAt: Date
}
