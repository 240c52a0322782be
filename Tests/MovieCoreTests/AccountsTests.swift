import Foundation
import SQLiteStore
import Synchronization
import Testing

@testable import MovieCore

/// A clock the accounts tests move by hand.
final class AccountsClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A data directory with the store opened, and services over it as a server process would build them.
final class AccountsHarness: Sendable {
    let directory: DataDirectory
    let movieStore: MovieStore
    let clock = AccountsClock()
    /// Seals refresh tokens as a server configured for Firebase does.
    let sealer: TokenSealer

    init() throws {
        directory = DataDirectory(path: NSTemporaryDirectory() + "AccountsTests-" + UUID().uuidString)
        movieStore = try MovieStore(directory: directory)
        sealer = try TokenSealer(key: LibCrypto.randomBytes(32))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory.path)
    }

    var store: AccountStore { AccountStore(database: movieStore.database, sealer: sealer) }
    var favorites: FavoritesStore { FavoritesStore(database: movieStore.database) }

    /// Local accounts at a test cost, on this harness's clock.
    func service(
        iterations: Int = 1000, on database: Database? = nil, recordingCacheLifetime: Duration = .seconds(1)
    ) -> AccountService {
        let store = AccountStore(database: database ?? movieStore.database, sealer: sealer)
        let clock = self.clock
        return AccountService(
            store: store, provider: LocalAccountProvider(store: store, hasher: PasswordHasher(iterations: iterations)),
            now: { clock.now }, recordingCacheLifetime: recordingCacheLifetime)
    }

    /// Another "process": its own connection to the same data directory.
    func otherProcess(iterations: Int = 1000) throws -> AccountService {
        service(iterations: iterations, on: try MovieStore(directory: directory).database)
    }

    func count(_ sql: String, _ arguments: [SQLiteValue] = []) async throws -> Int {
        try await movieStore.database.read { db in try db.scalarInt(sql, arguments) ?? 0 }
    }

    func passwordHash(of userID: String) async throws -> String? {
        try await store.user(id: userID)?.passwordHash
    }
}

/// Runs `body` and returns the `MovieError` it threw (nil when it threw none or another error).
func movieError(_ body: () async throws -> Void) async -> MovieError? {
    do {
        try await body()
        return nil
    } catch let error as MovieError {
        return error
    } catch {
        return nil
    }
}

@Suite struct AccountsTests {
    let harness: AccountsHarness
    let accounts: AccountService

    init() throws {
        harness = try AccountsHarness()
        accounts = harness.service()
    }

    // MARK: Registration

    @Test func registerLogsInAndStoresNoPasswordInClear() async throws {
        let user = try await accounts.register(
            email: "Ada@Example.com", password: "correct horse", passwordConfirmation: "correct horse",
            profile: ProfileChanges(displayName: "Ada", birthDate: "1990-12-10"))
        #expect(user.email == "Ada@Example.com")
        #expect(user.provider == .local)
        #expect(user.profile == UserProfile(displayName: "Ada", birthDate: "1990-12-10"))
        #expect(try await accounts.currentUser() == user)
        #expect(await accounts.currentUserID() == user.id)
        let hash = try #require(try await harness.passwordHash(of: user.id))
        #expect(hash.hasPrefix("pbkdf2-sha256$1000$"))
        #expect(!hash.contains("correct horse"))
        #expect(try await harness.count("SELECT count(*) FROM users WHERE email_normalized = 'ada@example.com'") == 1)
    }

    @Test func whatIsReadForTheCurrentUserIsOfTheSessionsMoment() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        // One transaction from the session's lookup to the end of the body: one snapshot, not one each.
        let (userID, inOneTransaction) = try await accounts.readAsCurrentUser { userID, db in (userID, db.isInTransaction) }
        #expect(userID == user.id)
        #expect(inOneTransaction)
    }

    @Test func storedTimesFormatAsTheyWereReturned() async throws {
        for index in 0..<30 {
            let user = try await accounts.register(email: "user\(index)@example.com", password: "pw1")
            let stored = try #require(try await accounts.currentUser())
            #expect(Timestamp.string(stored.createdAt) == Timestamp.string(user.createdAt))
            let added = try await harness.favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
            let listed = try #require(try await harness.favorites.list(userID: user.id).first)
            #expect(Timestamp.string(listed.addedAt) == Timestamp.string(added.addedAt))
        }
    }

    @Test func invalidRegistrationListsEveryFieldAndCreatesNothing() async throws {
        let error = await movieError {
            _ = try await accounts.register(
                email: "ada@", password: "ab", passwordConfirmation: "abc", profile: ProfileChanges(phone: "x"))
        }
        guard case .validationFailed(let problems) = error else {
            Issue.record("expected validationFailed, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.field) == ["email", "password", "passwordConfirmation", "profile.phone"])
        #expect(try await harness.count("SELECT count(*) FROM users") == 0)
        #expect(try await harness.count("SELECT count(*) FROM sessions") == 0)
        #expect(try await accounts.currentUser() == nil)
    }

    @Test func emailIsTakenCaseInsensitively() async throws {
        _ = try await accounts.register(email: "ada@example.com", password: "pw1")
        let error = await movieError { _ = try await accounts.register(email: "ADA@example.COM", password: "pw2") }
        #expect(error == .emailTaken)
        #expect(try await harness.count("SELECT count(*) FROM users") == 1)
    }

    @Test func theUniqueConstraintDecidesWhenRegistrationsRace() async throws {
        let results = await withTaskGroup(of: MovieError?.self) { group in
            for index in 0..<4 {
                group.addTask {
                    await movieError {
                        _ = try await accounts.register(email: "race@example.com", password: "pw\(index)")
                    }
                }
            }
            var results: [MovieError?] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.filter { $0 == nil }.count == 1)
        #expect(results.filter { $0 == .emailTaken }.count == 3)
        #expect(try await harness.count("SELECT count(*) FROM users") == 1)
    }

    // MARK: Login and the session singleton

    @Test func unknownEmailAndWrongPasswordFailAlike() async throws {
        _ = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await accounts.logout()
        #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "pw2") }
            == .invalidCredentials)
        #expect(await movieError { _ = try await accounts.login(email: "bob@example.com", password: "pw1") }
            == .invalidCredentials)
        #expect(try await accounts.currentUser() == nil)
        let user = try await accounts.login(email: "ADA@example.com", password: "pw1")
        #expect(user.email == "ada@example.com")
        #expect(try await accounts.currentUser()?.id == user.id)
    }

    @Test func invalidLoginInputIsRefusedBeforeAnyCheck() async throws {
        let error = await movieError { _ = try await accounts.login(email: "nope", password: "x") }
        #expect(error == .validationFailed([
            FieldProblem(field: "email", problem: AccountValidator.Message.emailInvalid),
            FieldProblem(field: "password", problem: AccountValidator.Message.passwordTooShort),
        ]))
        #expect(try await harness.count("SELECT count(*) FROM login_attempts") == 0)
    }

    @Test func theSessionIsTheDataDirectorys() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        // A restarted server, or a second process on the same directory, sees the same user.
        let other = try harness.otherProcess()
        #expect(try await other.currentUser()?.id == user.id)
        try await other.logout()
        #expect(try await accounts.currentUser() == nil)
        #expect(await accounts.currentUserID() == nil)
        #expect(try await harness.count("SELECT count(*) FROM sessions") == 0)
        #expect(try await accounts.logout() == false)
    }

    @Test func loggingInEndsThePreviousSession() async throws {
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        let bob = try await accounts.register(email: "bob@example.com", password: "pw2")
        #expect(try await accounts.currentUser()?.id == bob.id)
        _ = try await accounts.login(email: "ada@example.com", password: "pw1")
        #expect(try await accounts.currentUser()?.id == ada.id)
        #expect(try await harness.count("SELECT count(*) FROM sessions") == 1)
        #expect(try await harness.count("SELECT count(*) FROM current_session") == 1)
    }

    @Test func sessionTokensAreStoredOnlyAsSHA256() async throws {
        _ = try await accounts.register(email: "ada@example.com", password: "pw1")
        let lengths = try await harness.movieStore.database.read { db in
            try db.query("SELECT length(token_hash) AS n, typeof(token_hash) AS t FROM sessions").map {
                "\(try $0.int("n")) \(try $0.string("t"))"
            }
        }
        #expect(lengths == ["32 blob"])
    }

    // MARK: Throttling

    @Test func fiveFailuresLockTheEmailWithGrowingWaits() async throws {
        _ = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await accounts.logout()
        for _ in 1...5 {
            #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "bad") }
                == .invalidCredentials)
        }
        // Locked, even for the right password, and across a restart.
        #expect(await movieError { _ = try await accounts.login(email: "ADA@example.com", password: "pw1") }
            == .tooManyAttempts(retryAfter: 30))
        harness.clock.advance(10)
        let other = try harness.otherProcess()
        #expect(await movieError { _ = try await other.login(email: "ada@example.com", password: "pw1") }
            == .tooManyAttempts(retryAfter: 20))
        let restarted = harness.service()
        #expect(await movieError { _ = try await restarted.login(email: "ada@example.com", password: "pw1") }
            == .tooManyAttempts(retryAfter: 20))
        // After the lock, one more failure locks twice as long.
        harness.clock.advance(21)
        #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "bad") }
            == .invalidCredentials)
        #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "pw1") }
            == .tooManyAttempts(retryAfter: 60))
        harness.clock.advance(61)
        _ = try await accounts.login(email: "ada@example.com", password: "pw1")
        // Success resets: the next failure is an ordinary one.
        try await accounts.logout()
        #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "bad") }
            == .invalidCredentials)
        #expect(try await harness.count("SELECT failures FROM login_attempts") == 1)
    }

    @Test func unknownEmailsAreThrottledToo() async throws {
        for _ in 1...5 {
            _ = await movieError { _ = try await accounts.login(email: "ghost@example.com", password: "pw1") }
        }
        #expect(await movieError { _ = try await accounts.login(email: "ghost@example.com", password: "pw1") }
            == .tooManyAttempts(retryAfter: 30))
    }

    /// Issue 13.1: the lock used to be read before the hash ran and the failure written after it, so 100
    /// guesses at once were all checked against a lock none of them had set yet.
    @Test func concurrentGuessesGetNoMoreChecksThanSequentialOnes() async throws {
        _ = try await accounts.register(email: "ada@example.com", password: "pw-right")
        try await accounts.logout()
        let accounts = self.accounts
        let outcomes = await withTaskGroup(of: MovieError?.self) { group in
            for index in 0..<100 {
                group.addTask {
                    await movieError {
                        _ = try await accounts.login(email: "ada@example.com", password: "bad-\(index)")
                    }
                }
            }
            var outcomes: [MovieError?] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.filter { $0 == .invalidCredentials }.count == 5)
        #expect(outcomes.filter { $0 == .tooManyAttempts(retryAfter: 30) }.count == 95)
        #expect(try await harness.count("SELECT failures FROM login_attempts") == 5)
        #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "pw-right") }
            == .tooManyAttempts(retryAfter: 30))
    }

    @Test func concurrentPasswordChecksOfTheLoggedInUserAreThrottledAlike() async throws {
        _ = try await accounts.register(email: "ada@example.com", password: "pw-right")
        let accounts = self.accounts
        let outcomes = await withTaskGroup(of: MovieError?.self) { group in
            for index in 0..<40 {
                group.addTask {
                    await movieError {
                        if index.isMultiple(of: 2) {
                            _ = try await accounts.update(newPassword: "pw-new", currentPassword: "bad-\(index)")
                        } else {
                            try await accounts.deleteAccount(password: "bad-\(index)")
                        }
                    }
                }
            }
            var outcomes: [MovieError?] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.filter { $0 == .invalidCredentials }.count == 5)
        #expect(outcomes.filter { $0 == .tooManyAttempts(retryAfter: 30) }.count == 35)
    }

    /// Two "processes" on one data directory share the throttle: the count is taken in the database.
    @Test func guessesFromTwoProcessesAtOnceShareTheCount() async throws {
        _ = try await accounts.register(email: "ada@example.com", password: "pw-right")
        try await accounts.logout()
        let services = [accounts, try harness.otherProcess()]
        let outcomes = await withTaskGroup(of: MovieError?.self) { group in
            for index in 0..<40 {
                let service = services[index % 2]
                group.addTask {
                    await movieError { _ = try await service.login(email: "ada@example.com", password: "bad") }
                }
            }
            var outcomes: [MovieError?] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.filter { $0 == .invalidCredentials }.count == 5)
    }

    @Test func lockDurationsDoubleUpToTheCap() {
        let throttle = LoginThrottle()
        #expect((1...4).map { throttle.lockDuration(afterFailures: $0) } == [nil, nil, nil, nil])
        #expect(throttle.lockDuration(afterFailures: 5) == 30)
        #expect(throttle.lockDuration(afterFailures: 6) == 60)
        #expect(throttle.lockDuration(afterFailures: 7) == 120)
        #expect(throttle.lockDuration(afterFailures: 10) == 900)
        #expect(throttle.lockDuration(afterFailures: 10_000) == 900)
    }

    // MARK: Hash upgrades

    @Test func aRaisedCostRehashesOnTheNextLogin() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        #expect(try await harness.passwordHash(of: user.id)?.hasPrefix("pbkdf2-sha256$1000$") == true)
        let stronger = harness.service(iterations: 2000)
        #expect(await movieError { _ = try await stronger.login(email: "ada@example.com", password: "bad") }
            == .invalidCredentials)
        #expect(try await harness.passwordHash(of: user.id)?.hasPrefix("pbkdf2-sha256$1000$") == true)
        _ = try await stronger.login(email: "ada@example.com", password: "pw1")
        #expect(try await harness.passwordHash(of: user.id)?.hasPrefix("pbkdf2-sha256$2000$") == true)
        // The old cost still verifies the new hash (each hash records its own cost).
        _ = try await accounts.login(email: "ada@example.com", password: "pw1")
        #expect(try await harness.passwordHash(of: user.id)?.hasPrefix("pbkdf2-sha256$2000$") == true)
    }

    // MARK: Account changes

    @Test func profileChangesSetAndClearFields() async throws {
        _ = try await accounts.register(
            email: "ada@example.com", password: "pw1", profile: ProfileChanges(displayName: "Ada", phone: "123"))
        let updated = try await accounts.update(
            profile: ProfileChanges(bio: "Mathematician", phone: ""))
        #expect(updated.profile == UserProfile(displayName: "Ada", bio: "Mathematician"))
        #expect(try await accounts.currentUser()?.profile == updated.profile)
        let error = await movieError {
            _ = try await accounts.update(profile: ProfileChanges(birthDate: "1990-02-30"))
        }
        #expect(error == .validationFailed([
            FieldProblem(field: "profile.birthDate", problem: AccountValidator.Message.birthDateNotReal),
        ]))
    }

    @Test func accountMethodsNeedALoggedInUser() async throws {
        #expect(await movieError { _ = try await accounts.update() }
            == .loginRequired)
        #expect(await movieError { try await accounts.deleteAccount(password: "pw1") } == .loginRequired)
        #expect(await movieError { _ = try await accounts.requireUser() } == .loginRequired)
    }

    @Test func passwordChangeNeedsTheCurrentPasswordAndEndsOtherSessions() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        // Another session of the same user (another device's, say).
        try await harness.movieStore.database.write { db in
            try db.run(
                "INSERT INTO sessions(token_hash, user_id, created_at) VALUES (randomblob(32), ?, '2026-01-01')",
                [.text(user.id)])
        }
        let before = try await harness.store.currentSession()?.session
        #expect(await movieError { _ = try await accounts.update(newPassword: "pw2", currentPassword: nil) }
            == .validationFailed([
                FieldProblem(field: "currentPassword", problem: AccountValidator.Message.currentPasswordRequired),
            ]))
        #expect(await movieError { _ = try await accounts.update(newPassword: "pw2", currentPassword: "bad") }
            == .invalidCredentials)
        #expect(try await harness.store.sessionCount(userID: user.id) == 2)

        _ = try await accounts.update(newPassword: "pw2", currentPassword: "pw1")
        #expect(try await harness.store.sessionCount(userID: user.id) == 1)
        let after = try #require(try await harness.store.currentSession()?.session)
        #expect(after.id == before?.id)
        #expect(after.tokenHash != before?.tokenHash)
        #expect(try await accounts.currentUser()?.id == user.id)
        try await accounts.logout()
        #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "pw1") }
            == .invalidCredentials)
        _ = try await accounts.login(email: "ada@example.com", password: "pw2")
    }

    @Test func deletingAnAccountLeavesNothingOfIt() async throws {
        let bob = try await accounts.register(email: "bob@example.com", password: "pw2")
        try await harness.favorites.add(userID: bob.id, movie: FavoritesTests.movie(13))
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await harness.favorites.add(userID: ada.id, movie: FavoritesTests.movie(550))
        try await harness.favorites.add(userID: ada.id, movie: FavoritesTests.movie(13))
        try await accounts.logout()
        _ = await movieError { _ = try await accounts.login(email: "ada@example.com", password: "bad") }
        _ = try await accounts.login(email: "ada@example.com", password: "pw1")
        _ = await movieError { _ = try await accounts.login(email: "ada@example.com", password: "bad") }
        #expect(try await harness.count("SELECT count(*) FROM login_attempts") == 1)

        #expect(await movieError { try await accounts.deleteAccount(password: "bad") } == .invalidCredentials)
        #expect(try await harness.count("SELECT count(*) FROM users WHERE id = ?", [.text(ada.id)]) == 1)

        try await accounts.deleteAccount(password: "pw1")
        #expect(try await accounts.currentUser() == nil)
        for table in ["users WHERE id = ?", "sessions WHERE user_id = ?", "favorites WHERE user_id = ?"] {
            #expect(try await harness.count("SELECT count(*) FROM \(table)", [.text(ada.id)]) == 0, "\(table)")
        }
        #expect(try await harness.count("SELECT count(*) FROM login_attempts") == 0)
        #expect(try await harness.count("SELECT count(*) FROM current_session") == 0)
        // Bob is untouched, and the email is free again.
        #expect(try await harness.favorites.list(userID: bob.id).map(\.movieID) == [13])
        #expect(try await harness.count("SELECT count(*) FROM users") == 1)
        _ = try await accounts.register(email: "ada@example.com", password: "pw3")
    }

    @Test func aSessionOfTheOtherProviderDoesNotCount() async throws {
        _ = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await harness.movieStore.database.write { db in try db.run("UPDATE users SET provider = 'firebase'") }
        #expect(try await accounts.currentUser() == nil)
        #expect(await accounts.currentUserID() == nil)
    }

    // MARK: The user recorded events are attributed to

    @Test func recordingsThatMissTheCachedUserTogetherShareTheSessionRead() async throws {
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        let accounts = harness.service()  // A fresh cache, as after its lifetime.
        let seen = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<32 { group.addTask { await accounts.currentUserIDForRecording() } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(seen == Array(repeating: ada.id, count: 32))
        // The first read, and at most one more for the calls that arrived while it ran; then the cache.
        #expect(accounts.recordingSessionReads <= 2)
        #expect(await accounts.currentUserIDForRecording() == ada.id)
        #expect(accounts.recordingSessionReads <= 2)
    }

    /// An expired id goes on serving while one read renews it: a recording never waits for that read. Another
    /// process's logout shows once the renewal has read it. (A lifetime of zero: every call finds it expired.)
    @Test func anExpiredRecordingUserServesWhileOneReadRenewsIt() async throws {
        let ada = try await accounts.register(email: "ada@example.com", password: "pw1")
        let accounts = harness.service(recordingCacheLifetime: .zero)
        #expect(await accounts.currentUserIDForRecording() == ada.id)
        #expect(accounts.recordingSessionReads == 1)
        try await harness.otherProcess().logout()
        // Expired: the cached id at once, while a read renews it.
        #expect(await accounts.currentUserIDForRecording() == ada.id)
        await accounts.renewalOfRecordingUser()
        #expect(accounts.recordingSessionReads == 2)
        #expect(await accounts.currentUserIDForRecording() == nil)
    }

    @Test func nobodyLoggedInIsCachedForRecordingToo() async throws {
        #expect(await accounts.currentUserIDForRecording() == nil)
        #expect(await accounts.currentUserIDForRecording() == nil)
        #expect(accounts.recordingSessionReads == 1)
    }
}
