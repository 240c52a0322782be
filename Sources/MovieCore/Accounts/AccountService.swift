#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport
import SQLiteStore
import Synchronization
import TMDB

/// Registration, login, the session singleton and account changes, for whichever ``AccountProvider`` is
/// configured.
///
/// **The session singleton.** The data directory has at most one current session (table
/// `current_session`), and every process on the directory reads it from the database when it needs to
/// know who is logged in (one indexed query): a restarted server comes back logged in, and two processes
/// see the same user. Logging in (or registering) ends the session that was current; logging out ends the
/// current one; a password change ends every other session of the user and gives the current one a fresh
/// token.
///
/// **Order of checks.** Input is validated first (every failing field reported, nothing sent or stored),
/// then the login throttle, then the provider. Password checks (login, password change, deletion) are
/// counted towards the throttle of the account's email before they run, one atomic step per attempt; a
/// successful check clears the count.
///
/// Passwords, hashes and tokens never appear in results, errors or log lines.
public final class AccountService: Sendable {
    let store: AccountStore
    let provider: any AccountProvider
    let throttle: LoginThrottle
    private let now: @Sendable () -> Date
    /// Sync's part in deleting an account (its remote documents go first).
    let syncHooks = AccountSyncHooks()
    /// The current user's id as event recording sees it (see `currentUserIDForRecording`).
    private let recordingCache = Mutex<RecordingCache>(RecordingCache())
    /// The session read behind `recordingCache`, shared by the recordings that miss it at the same time.
    private let recordingRead: SharedRead<String?>

    private struct RecordingCache {
        var userID: String?
        var readAt: ContinuousClock.Instant?
        /// Bumped whenever this process changes the session; a read that started before is not kept.
        var generation: UInt64 = 0
        /// The background read that renews the expired id (see ``currentUserIDForRecording()``).
        var renewal: Task<Void, Never>?
    }

    /// How long a cached current-user id serves event recording before it is read again: another process's
    /// login or logout on the same data directory shows in recorded events within this time and one read.
    private let recordingCacheLifetime: Duration

    init(
        store: AccountStore, provider: any AccountProvider, throttle: LoginThrottle = LoginThrottle(),
        now: @escaping @Sendable () -> Date = Date.init, recordingCacheLifetime: Duration = .seconds(1)
    ) {
        self.recordingCacheLifetime = recordingCacheLifetime
        self.store = store
        self.provider = provider
        self.throttle = throttle
        self.now = now
        // Not `self`: the service owns the shared read.
        let kind = provider.kind
        recordingRead = SharedRead { [store] in await Self.currentUserID(store, provider: kind) }
    }

    /// Local accounts hashed with `hasher`, or Firebase Auth when `firebase` is given (its REST calls go
    /// through `http`, by default a `SocketHTTPClient` with the configured timeout).
    public convenience init(
        store: AccountStore, hasher: PasswordHasher, firebase: FirebaseConfiguration?, http: (any HTTPClient)? = nil
    ) {
        let provider: any AccountProvider
        if let firebase {
            let client = FirebaseAuthClient(
                configuration: firebase, http: http ?? SocketHTTPClient(timeoutSeconds: firebase.timeoutSeconds))
            provider = FirebaseAccountProvider(client: client, store: store)
        } else {
            provider = LocalAccountProvider(store: store, hasher: hasher)
        }
        self.init(store: store, provider: provider)
    }

    /// Which provider checks credentials.
    public var providerKind: AccountProviderKind { provider.kind }

    // MARK: Validation

    /// Problems of the given form fields; no side effect.
    public func validate(_ form: AccountValidator.Form) -> [FieldProblem] {
        AccountValidator.problems(form, today: now())
    }

    private func requireValid(_ form: AccountValidator.Form, extra: [FieldProblem] = []) throws {
        let problems = validate(form) + extra
        guard problems.isEmpty else { throw MovieError.validationFailed(problems) }
    }

    // MARK: Register, log in, log out

    /// Creates an account and logs it in (the previous session ends).
    public func register(
        email: String, password: String, passwordConfirmation: String? = nil, profile: ProfileChanges? = nil
    ) async throws -> User {
        try requireValid(AccountValidator.Form(
            email: email, password: password, passwordConfirmation: passwordConfirmation, profile: profile))
        let initialProfile = UserProfile().applying(profile ?? ProfileChanges())
        let signIn = try await provider.register(email: email, password: password, profile: initialProfile, now: now())
        let row: AccountStore.UserRow =
            provider.kind == .firebase ? .upsertRemote : .insert(passwordHash: signIn.passwordHash)
        let session = try await store.startSession(
            for: signIn.user, row: row, refreshToken: signIn.credential?.refreshToken)
        provider.setCredential(signIn.credential, for: session)
        sessionChanged()
        return signIn.user
    }

    /// Logs in (the previous session ends). Unknown email and wrong password fail alike with
    /// `invalidCredentials`; after too many failures, `tooManyAttempts` until the lock passes.
    public func login(email: String, password: String) async throws -> User {
        try requireValid(AccountValidator.Form(email: email, password: password))
        let signIn = try await checkingThrottle(email: email) {
            try await provider.signIn(email: email, password: password)
        }
        let session = try await store.startSession(
            for: signIn.user, row: provider.kind == .firebase ? .upsertRemote : .existing,
            refreshToken: signIn.credential?.refreshToken)
        provider.setCredential(signIn.credential, for: session)
        sessionChanged()
        return try await store.user(id: signIn.user.id)?.user ?? signIn.user
    }

    /// Ends the current session. Returns whether someone was logged in.
    @discardableResult
    public func logout() async throws -> Bool {
        if let (session, _) = try await currentSession() {
            provider.setCredential(nil, for: session)
        }
        defer { sessionChanged() }
        return try await store.endCurrentSession() != nil
    }

    /// Runs a password check under the throttle of `email`: the attempt is let through and counted in one
    /// step before the check runs (see `AccountStore.beginLoginAttempt`), so concurrent guesses cannot
    /// all pass a check made before the first of them failed. A success clears the count; a check that
    /// could not run (an upstream or storage failure, not a wrong password) gives its count back.
    private func checkingThrottle<T: Sendable>(email: String, _ check: () async throws -> T) async throws -> T {
        let attempt = try await store.beginLoginAttempt(email: email, now: now, throttle: throttle)
        do {
            let result = try await check()
            try await store.clearLoginFailures(email: email)
            return result
        } catch MovieError.invalidCredentials {
            StoreLog.warning("Failed password check (\(attempt.failures) in a row for this email)")
            throw MovieError.invalidCredentials
        } catch {
            do {
                try await store.refund(attempt)
            } catch let refundError {
                StoreLog.warning("Could not give back a login attempt's count: \(refundError)")
            }
            throw error
        }
    }

    // MARK: The current user

    /// The current user's id for attributing recorded events, without a database read on every request:
    /// cached for `recordingCacheLifetime`, and dropped at once when this process logs in or out. Once it
    /// expires, the cached id goes on serving while one read in the background renews it: a recording never
    /// waits for that read (in a pipelined burst, every request arriving during the read used to wait for it,
    /// and the burst left the reading thread for the cooperative pool). Only when there is no cached id (the
    /// first recording, or this process changed the session) do the recordings wait, sharing one read: each
    /// reading alone made a burst queue dozens of reads, and open every reader of the pool (a schema parse
    /// each). Methods that act for the user (favorites, account changes) read the session itself instead.
    /// Runs on its caller's executor: it is on every recorded request's path.
    public nonisolated(nonsending) func currentUserIDForRecording() async -> String? {
        switch lookUpRecordingCache() {
        case .userID(let userID): return userID
        case .missing(let generation): return await readForRecording(generation: generation)
        }
    }

    /// The user ``currentUserIDForRecording()`` answers when the cache holds one, without a suspension
    /// point; nil when it must be read (then call that). Every recorded request asks: each await on its
    /// path is an async frame and a hop back.
    public func cachedUserForRecording() -> RecordingUser? {
        switch lookUpRecordingCache() {
        case .userID(let userID): RecordingUser(id: userID)
        case .missing: nil
        }
    }

    /// The user recorded events are attributed to; `id` nil: nobody is logged in.
    public struct RecordingUser: Sendable {
        public let id: String?
    }

    private enum RecordingCacheLookup { case userID(String?), missing(generation: UInt64) }

    /// The cached user, starting its renewal in the background once it has expired.
    private func lookUpRecordingCache() -> RecordingCacheLookup {
        recordingCache.withLock { cache -> RecordingCacheLookup in
            guard let readAt = cache.readAt else { return .missing(generation: cache.generation) }
            if ContinuousClock.now - readAt >= recordingCacheLifetime, cache.renewal == nil {
                // Set under the lock the renewal's end clears it with, so it is never cleared before it is set.
                let generation = cache.generation
                cache.renewal = Task { await readForRecording(generation: generation, renewing: true) }
            }
            return .userID(cache.userID)
        }
    }

    /// Reads the current user for recording and caches it, unless the session changed since `generation` was
    /// taken (the shared read starts after this call began, so that generation still tells). Its only error is
    /// this task's cancellation: nil, and nothing cached.
    @discardableResult
    private func readForRecording(generation: UInt64, renewing: Bool = false) async -> String? {
        let userID: String?
        do {
            userID = try await recordingRead.value()
        } catch {
            if renewing { recordingCache.withLock { $0.renewal = nil } }
            return nil
        }
        recordingCache.withLock { cache in
            if renewing { cache.renewal = nil }
            guard cache.generation == generation else { return }
            cache.userID = userID
            cache.readAt = .now
        }
        return userID
    }

    /// This process changed the session: the next recorded event reads it again.
    private func sessionChanged() {
        recordingCache.withLock { cache in
            cache.generation += 1
            cache.readAt = nil
        }
    }

    /// The logged-in user, or nil. A session whose user belongs to another provider than the configured
    /// one (the server was restarted with or without Firebase) does not count.
    public func currentUser() async throws -> User? {
        try await currentSession()?.user.user
    }

    /// The logged-in user's id, or nil (also when the database cannot be read).
    public func currentUserID() async -> String? {
        await Self.currentUserID(store, provider: provider.kind)
    }

    private static func currentUserID(_ store: AccountStore, provider: AccountProviderKind) async -> String? {
        do {
            return try await store.read { db in try currentUserID(in: db, provider: provider) }
        } catch {
            StoreLog.warning("Could not read the current session: \(error)")
            return nil
        }
    }

    /// How many session reads recording has made so far.
    var recordingSessionReads: Int {
        recordingRead.readCount
    }

    /// Returns once the background renewal of the recording's user id, if one runs, has ended (for tests).
    func renewalOfRecordingUser() async {
        await recordingCache.withLock { $0.renewal }?.value
    }

    /// The logged-in user's id, or `loginRequired`: one indexed lookup, for calls that need only the id
    /// (favorites), not the user's row and session (the refresh token is not unsealed).
    public func requireUserID() async throws -> String {
        try await readAsCurrentUser { userID, _ in userID }
    }

    /// Runs `body` on a reader with the logged-in user's id (`loginRequired` when nobody is logged in):
    /// the session and what `body` reads for that user take one read, one hop to a reader and back, and
    /// one snapshot: what `body` reads is of the session's moment.
    func readAsCurrentUser<T: Sendable>(
        _ body: @escaping @Sendable (_ userID: String, SQLiteConnection) throws -> T
    ) async throws -> T {
        try await store.read { [self] db in
            guard let userID = try currentUserID(in: db) else { throw MovieError.loginRequired }
            return try body(userID, db)
        }
    }

    /// The logged-in user's id, on a connection a read already holds: the current session's user when it
    /// belongs to the configured provider, else nil. Every "who is logged in by id" of the server asks here.
    func currentUserID(in db: SQLiteConnection) throws -> String? {
        try Self.currentUserID(in: db, provider: provider.kind)
    }

    private static func currentUserID(in db: SQLiteConnection, provider: AccountProviderKind) throws -> String? {
        guard let current = try AccountStore.currentUserID(db), current.provider == provider else { return nil }
        return current.id
    }

    /// The logged-in user, or `loginRequired`.
    public func requireUser() async throws -> User {
        guard let user = try await currentUser() else { throw MovieError.loginRequired }
        return user
    }

    func currentSession() async throws -> (session: AccountStore.Session, user: AccountStore.StoredUser)? {
        guard let current = try await store.currentSession(), current.user.user.provider == provider.kind else {
            return nil
        }
        return current
    }

    private func requireSession() async throws -> (session: AccountStore.Session, user: User) {
        guard let current = try await currentSession() else { throw MovieError.loginRequired }
        return (current.session, current.user.user)
    }

    // MARK: Account changes

    /// Changes the profile and/or the password of the logged-in user. A new password needs the current
    /// one (`invalidCredentials` when wrong) and ends every other session.
    public func update(
        profile: ProfileChanges? = nil, newPassword: String? = nil, currentPassword: String? = nil
    ) async throws -> User {
        let (session, user) = try await requireSession()
        var extra: [FieldProblem] = []
        if let newPassword, let problem = AccountValidator.passwordProblem(newPassword) {
            extra.append(FieldProblem(field: "newPassword", problem: problem))
        }
        if newPassword != nil, currentPassword?.isEmpty ?? true {
            extra.append(FieldProblem(
                field: "currentPassword", problem: AccountValidator.Message.currentPasswordRequired))
        }
        try requireValid(AccountValidator.Form(profile: profile), extra: extra)

        if let newPassword, let currentPassword {
            let reauthenticated = try await checkingThrottle(email: user.email) {
                try await provider.reauthenticate(user, password: currentPassword)
            }
            let credential = try await provider.setPassword(newPassword, for: user, reauthenticated: reauthenticated)
            let rotated = try await store.rotateSession(session, refreshToken: credential?.refreshToken)
            provider.setCredential(nil, for: session)
            provider.setCredential(credential, for: rotated)
        }
        guard let profile, !profile.isEmpty else {
            return try await store.user(id: user.id)?.user ?? user
        }
        let updated = user.profile.applying(profile)
        if updated != user.profile {
            let current = try await requireSession()
            try await provider.profileWillChange(from: user.profile, to: updated, of: user, session: current.session)
        }
        return try await store.setProfile(userID: user.id, updated)
    }

    /// Deletes the logged-in user's account after checking the password, with everything that belongs to
    /// it locally: sessions, favorites and login-throttle rows, and returns the deleted user. (Their events
    /// are the event log's to delete: see `MovieServices.deleteAccount`.)
    @discardableResult
    public func deleteAccount(password: String) async throws -> User {
        let (session, user) = try await requireSession()
        if let problem = AccountValidator.passwordProblem(password) {
            // Too short or too long cannot be the password; say so without a request.
            throw MovieError.validationFailed([FieldProblem(field: "password", problem: problem)])
        }
        let reauthenticated = try await checkingThrottle(email: user.email) {
            try await provider.reauthenticate(user, password: password)
        }
        try await syncHooks.accountWillBeDeleted(userID: user.id, idToken: reauthenticated?.idToken)
        try await provider.deleteAccount(user, reauthenticated: reauthenticated)
        provider.setCredential(nil, for: session)
        defer { sessionChanged() }
        try await store.deleteUser(id: user.id)
        return user
    }
}
