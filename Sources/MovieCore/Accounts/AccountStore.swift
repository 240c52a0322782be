#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// Accounts, sessions, login throttling and favorites in the local database. Every statement binds its
/// values; SQLite failures become `MovieError.storage` through `StorageErrors`.
///
/// Tables (migration `v1-accounts`, then `v1-favorites`):
/// - `users`: one row per account, local or Firebase (`id` is Firebase's `localId` for those), the email as
///   typed and lowercased (`UNIQUE(provider, email_normalized)`), the password hash (local accounts only)
///   and the profile.
/// - `sessions`: `token_hash` is the SHA-256 of a 256-bit random token (the token itself is never stored);
///   Firebase sessions also keep the refresh token, a secret that never leaves this table, sealed with
///   ``TokenSealer`` (a key outside the data directory).
/// - `current_session`: at most one row (`slot = 1`): the data directory's logged-in session, which every
///   process on the directory reads, so a restarted server comes back logged in.
/// - `login_attempts`: failed logins per lowercased email, and until when further attempts are refused.
/// - `favorites`: per user, `UNIQUE(user_id, movie_id)`, with the movie's summary as JSON for offline use.
///   `FavoritesStore.migrations` adds `favorites_revision`, the change counter its triggers keep.
///
/// Sessions, favorites and the current-session row go with their user (`ON DELETE CASCADE`). The event log
/// is not touched here: its rows carry a user id of their own, and the event log decides what happens to
/// them when the user is deleted.
public struct AccountStore: Sendable {
    static let migrations: [MovieStore.Migration] = [
        ("v1-accounts", { db in
            try db.execute("""
                CREATE TABLE users(
                    id TEXT PRIMARY KEY NOT NULL,
                    provider TEXT NOT NULL CHECK (provider IN ('local', 'firebase')),
                    email TEXT NOT NULL,
                    email_normalized TEXT NOT NULL,
                    password_hash TEXT,
                    display_name TEXT,
                    bio TEXT,
                    phone TEXT,
                    birth_date TEXT,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL,
                    UNIQUE (provider, email_normalized)
                );
                CREATE TABLE sessions(
                    id INTEGER PRIMARY KEY,
                    token_hash BLOB NOT NULL UNIQUE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    refresh_token TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX sessions_by_user ON sessions(user_id);
                CREATE TABLE current_session(
                    slot INTEGER PRIMARY KEY CHECK (slot = 1),
                    session_id INTEGER NOT NULL UNIQUE REFERENCES sessions(id) ON DELETE CASCADE
                );
                CREATE TABLE login_attempts(
                    email_normalized TEXT PRIMARY KEY NOT NULL,
                    failures INTEGER NOT NULL,
                    locked_until REAL,
                    last_failure_at REAL NOT NULL
                );
                """)
        }),
        ("v1-favorites", { db in
            try db.execute("""
                CREATE TABLE favorites(
                    id INTEGER PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    movie_id INTEGER NOT NULL,
                    added_at TEXT NOT NULL,
                    movie_json TEXT NOT NULL,
                    UNIQUE (user_id, movie_id)
                );
                CREATE INDEX favorites_by_user_added ON favorites(user_id, added_at);
                """)
        }),
        // Refresh tokens are sealed (TokenSealer) from now on; ones stored in clear before are dropped, so no
        // usable credential stays in the file (those Firebase users log in once more).
        ("v2-sealed-refresh-tokens", { db in
            try db.execute(
                "UPDATE sessions SET refresh_token = NULL WHERE refresh_token IS NOT NULL AND refresh_token NOT LIKE 'v1:%'")
        }),
    ]

    let database: Database
    /// Seals Firebase refresh tokens before they are written. Without one they are not written at all, and a
    /// Firebase session then lasts only as long as the process.
    let sealer: TokenSealer?
    /// Records profile changes in the sync outbox, in their transaction; nil when sync is off.
    let journal: SyncJournal?

    /// Works on `database` (the data directory's store, migrated with ``migrations``).
    public init(database: Database, sealer: TokenSealer? = nil, journal: SyncJournal? = nil) {
        self.database = database
        self.sealer = sealer
        self.journal = journal
    }

    /// What the `refresh_token` column holds for `token`: sealed, or NULL.
    private func storable(_ token: String?) -> SQLiteValue {
        guard let token, let sealer else { return .null }
        do {
            return .text(try sealer.seal(token))
        } catch {
            StoreLog.warning("Could not seal a refresh token; it is kept for this process only")
            return .null
        }
    }

    /// The refresh token a stored column value holds, if it opens with our key.
    private func readable(_ stored: String?) -> String? {
        stored.flatMap { sealer?.open($0) }
    }

    /// A user row with the password hash local accounts have.
    struct StoredUser: Sendable, Equatable {
        var user: User
        var passwordHash: String?
    }

    /// A session row. `refreshToken` is Firebase's, a secret.
    struct Session: Sendable, Equatable {
        var id: Int64
        var tokenHash: [UInt8]
        var userID: String
        var refreshToken: String?
    }

    // MARK: Users

    private static let userColumns = """
        u.id, u.provider, u.email, u.password_hash, u.display_name, u.bio, u.phone, u.birth_date, u.created_at
        """

    private static func storedUser(_ row: Row) throws -> StoredUser {
        let provider = AccountProviderKind(rawValue: try row.string("provider")) ?? .local
        let createdAt = StoredTime.date(try row.string("created_at")) ?? Date(timeIntervalSince1970: 0)
        let profile = UserProfile(
            displayName: try row.optionalString("display_name"), bio: try row.optionalString("bio"),
            phone: try row.optionalString("phone"), birthDate: try row.optionalString("birth_date"))
        let user = User(
            id: try row.string("id"), email: try row.string("email"), profile: profile, createdAt: createdAt,
            provider: provider)
        return StoredUser(user: user, passwordHash: try row.optionalString("password_hash"))
    }

    private static func insert(_ user: User, passwordHash: String?, _ db: SQLiteConnection) throws {
        let now = Timestamp.string(user.createdAt)
        do {
            try db.run(
                """
                INSERT INTO users(id, provider, email, email_normalized, password_hash, display_name, bio, phone,
                                  birth_date, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(user.id), .text(user.provider.rawValue), .text(user.email),
                    .text(AccountValidator.normalizedEmail(user.email)), passwordHash.sqliteValue,
                    user.profile.displayName.sqliteValue, user.profile.bio.sqliteValue, user.profile.phone.sqliteValue,
                    user.profile.birthDate.sqliteValue, .text(now), .text(now),
                ])
        } catch let error as SQLiteError where error.isUniqueViolation {
            throw MovieError.emailTaken
        }
    }

    /// The user with this email (compared lowercased) at `provider`.
    func user(email: String, provider: AccountProviderKind) async throws -> StoredUser? {
        let normalized = AccountValidator.normalizedEmail(email)
        return try await read { db in
            try db.queryOne(
                "SELECT \(Self.userColumns) FROM users u WHERE u.provider = ? AND u.email_normalized = ?",
                [.text(provider.rawValue), .text(normalized)]
            ).map(Self.storedUser)
        }
    }

    /// The user with this id.
    func user(id: String) async throws -> StoredUser? {
        try await read { db in
            try db.queryOne("SELECT \(Self.userColumns) FROM users u WHERE u.id = ?", [.text(id)]).map(Self.storedUser)
        }
    }

    /// The highest cost (PBKDF2 iterations) among stored local password hashes, or nil when there are none.
    /// Read from the hashes' text (`pbkdf2-sha256$<iterations>$…`); one pass over the local users.
    func highestLocalHashCost() async throws -> Int? {
        let prefix = PasswordHash.algorithm + "$"
        return try await read { db in
            try db.queryOne(
                """
                SELECT max(CAST(substr(rest, 1, instr(rest, '$') - 1) AS INTEGER)) AS cost
                FROM (SELECT substr(password_hash, ?) AS rest FROM users
                      WHERE provider = 'local' AND substr(password_hash, 1, ?) = ?)
                """,
                [.integer(Int64(prefix.utf8.count + 1)), .integer(Int64(prefix.utf8.count)), .text(prefix)]
            )?.optionalInt("cost")
        }
    }

    /// Replaces a local user's password hash, if it is still `expected` (a concurrent change wins).
    func replacePasswordHash(userID: String, expected: String, with newHash: String) async throws {
        try await write { db in
            try db.run(
                "UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ? AND password_hash = ?",
                [.text(newHash), .text(Timestamp.string(Date())), .text(userID), .text(expected)])
        }
    }

    /// Sets a local user's password hash.
    func setPasswordHash(userID: String, _ hash: String) async throws {
        try await write { db in
            try db.run(
                "UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?",
                [.text(hash), .text(Timestamp.string(Date())), .text(userID)])
            guard db.changes == 1 else { throw MovieError.loginRequired }
        }
    }

    /// Sets the profile (all four fields) and returns the updated user.
    func setProfile(userID: String, _ profile: UserProfile) async throws -> User {
        let journal = journal
        let stored = try await write { db -> StoredUser? in
            try db.run(
                """
                UPDATE users SET display_name = ?, bio = ?, phone = ?, birth_date = ?, updated_at = ? WHERE id = ?
                """,
                [
                    profile.displayName.sqliteValue, profile.bio.sqliteValue, profile.phone.sqliteValue,
                    profile.birthDate.sqliteValue, .text(Timestamp.string(Date())), .text(userID),
                ])
            if db.changes == 1 { try journal?.profileChanged(db, userID: userID) }
            return try db.queryOne("SELECT \(Self.userColumns) FROM users u WHERE u.id = ?", [.text(userID)])
                .map(Self.storedUser)
        }
        guard let stored else { throw MovieError.loginRequired }
        journal?.committed()
        return stored.user
    }

    /// Deletes the user and everything that belongs to them: sessions (and so the current-session row, if
    /// it was theirs), favorites and the login-throttle row of their email.
    func deleteUser(id: String) async throws {
        try await write { db in
            let email = try db.queryOne("SELECT email_normalized FROM users WHERE id = ?", [.text(id)])?
                .string("email_normalized")
            try db.run("DELETE FROM users WHERE id = ?", [.text(id)])
            if let email {
                try db.run("DELETE FROM login_attempts WHERE email_normalized = ?", [.text(email)])
            }
        }
    }

    // MARK: Sessions

    /// What to do with the user's row when a session starts.
    enum UserRow: Sendable {
        /// A new local account: insert it (`emailTaken` when the email is registered).
        case insert(passwordHash: String?)
        /// A Firebase account: insert it, or refresh the email and display name of the existing row.
        case upsertRemote
        /// The row exists and stays as it is.
        case existing
    }

    /// Writes the user's row as `row` says and makes a new session for them the current one, in one
    /// transaction. The session that was current before ends.
    func startSession(for user: User, row: UserRow, refreshToken: String?) async throws -> Session {
        let token = try SessionToken.generate()
        let storedToken = storable(refreshToken)
        return try await write { db in
            switch row {
            case .insert(let passwordHash): try Self.insert(user, passwordHash: passwordHash, db)
            case .upsertRemote: try Self.upsertRemote(user, db)
            case .existing: break
            }
            return try Self.startSession(
                userID: user.id, tokenHash: token.hash, refreshToken: refreshToken, storedAs: storedToken, db)
        }
    }

    /// Inserts or refreshes a Firebase user's row: the email and (when Firebase has one) the display name
    /// follow Firebase; the rest of the profile is kept. A row of another Firebase account with the same
    /// email is stale (Firebase gives one email to one account: that one was deleted there) and goes.
    private static func upsertRemote(_ user: User, _ db: SQLiteConnection) throws {
        let now = Timestamp.string(Date())
        try db.run(
            "DELETE FROM users WHERE provider = ? AND email_normalized = ? AND id <> ?",
            [.text(user.provider.rawValue), .text(AccountValidator.normalizedEmail(user.email)), .text(user.id)])
        try db.run(
            """
            INSERT INTO users(id, provider, email, email_normalized, password_hash, display_name, bio, phone,
                              birth_date, created_at, updated_at)
            VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET
                email = excluded.email, email_normalized = excluded.email_normalized,
                display_name = coalesce(excluded.display_name, users.display_name), updated_at = excluded.updated_at
            """,
            [
                .text(user.id), .text(user.provider.rawValue), .text(user.email),
                .text(AccountValidator.normalizedEmail(user.email)), user.profile.displayName.sqliteValue,
                user.profile.bio.sqliteValue, user.profile.phone.sqliteValue, user.profile.birthDate.sqliteValue,
                .text(Timestamp.string(user.createdAt)), .text(now),
            ])
    }

    private static func startSession(
        userID: String, tokenHash: [UInt8], refreshToken: String?, storedAs storedToken: SQLiteValue,
        _ db: SQLiteConnection
    ) throws -> Session {
        try db.run("DELETE FROM sessions WHERE id = (SELECT session_id FROM current_session WHERE slot = 1)")
        try db.run(
            "INSERT INTO sessions(token_hash, user_id, refresh_token, created_at) VALUES (?, ?, ?, ?)",
            [.blob(tokenHash), .text(userID), storedToken, .text(Timestamp.string(Date()))])
        let id = db.lastInsertRowID
        try db.run(
            """
            INSERT INTO current_session(slot, session_id) VALUES (1, ?)
            ON CONFLICT(slot) DO UPDATE SET session_id = excluded.session_id
            """,
            [.integer(id)])
        return Session(id: id, tokenHash: tokenHash, userID: userID, refreshToken: refreshToken)
    }

    /// The current session and its user, if someone is logged in.
    func currentSession() async throws -> (session: Session, user: StoredUser)? {
        let sessionAndUser = try await read { db -> (session: Session, user: StoredUser)? in
            guard let row = try db.queryOne(
                """
                SELECT s.id AS session_id, s.token_hash, s.user_id, s.refresh_token, \(Self.userColumns)
                FROM current_session c
                JOIN sessions s ON s.id = c.session_id
                JOIN users u ON u.id = s.user_id
                WHERE c.slot = 1
                """)
            else { return nil }
            let session = Session(
                id: try row.int64("session_id"), tokenHash: try row.blob("token_hash"),
                userID: try row.string("user_id"), refreshToken: try row.optionalString("refresh_token"))
            return (session, try Self.storedUser(row))
        }
        guard let (stored, user) = sessionAndUser else { return nil }
        var session = stored
        session.refreshToken = readable(stored.refreshToken)
        return (session, user)
    }

    /// The logged-in user's id and provider, one indexed lookup, within a read of the caller's, so that what
    /// the caller reads for that user is read in the same hop.
    static func currentUserID(_ db: SQLiteConnection) throws -> (id: String, provider: AccountProviderKind)? {
        guard let row = try db.queryOne(
            """
            SELECT u.id, u.provider FROM current_session c
            JOIN sessions s ON s.id = c.session_id
            JOIN users u ON u.id = s.user_id
            WHERE c.slot = 1
            """)
        else { return nil }
        return (try row.string("id"), AccountProviderKind(rawValue: try row.string("provider")) ?? .local)
    }

    /// Ends the current session (deleting it) and returns whose it was.
    @discardableResult
    func endCurrentSession() async throws -> String? {
        try await write { db -> String? in
            let userID = try db.queryOne(
                "SELECT s.user_id FROM current_session c JOIN sessions s ON s.id = c.session_id WHERE c.slot = 1"
            )?.string("user_id")
            try db.run("DELETE FROM sessions WHERE id = (SELECT session_id FROM current_session WHERE slot = 1)")
            try db.run("DELETE FROM current_session")
            return userID
        }
    }

    /// Ends a session by id, if it still exists.
    func endSession(id: Int64) async throws {
        try await write { db in try db.run("DELETE FROM sessions WHERE id = ?", [.integer(id)]) }
    }

    /// After a password change: ends every other session of the user and gives the kept one a fresh token
    /// (and, for Firebase, the refresh token issued with the new password). Returns the kept session.
    func rotateSession(_ session: Session, refreshToken: String?) async throws -> Session {
        let token = try SessionToken.generate()
        let kept = refreshToken ?? session.refreshToken
        let storedToken = storable(kept)
        return try await write { db in
            try db.run(
                "DELETE FROM sessions WHERE user_id = ? AND id <> ?", [.text(session.userID), .integer(session.id)])
            try db.run(
                "UPDATE sessions SET token_hash = ?, refresh_token = ? WHERE id = ?",
                [.blob(token.hash), storedToken, .integer(session.id)])
            var rotated = session
            rotated.tokenHash = token.hash
            rotated.refreshToken = kept
            return rotated
        }
    }

    /// Keeps the refresh token Firebase issued with a refreshed ID token.
    func setRefreshToken(sessionID: Int64, _ refreshToken: String) async throws {
        let storedToken = storable(refreshToken)
        try await write { db in
            try db.run("UPDATE sessions SET refresh_token = ? WHERE id = ?", [storedToken, .integer(sessionID)])
        }
    }

    /// Number of sessions a user has (for tests and diagnostics).
    func sessionCount(userID: String) async throws -> Int {
        try await read { db in
            try db.scalarInt("SELECT count(*) FROM sessions WHERE user_id = ?", [.text(userID)]) ?? 0
        }
    }

    // MARK: Login throttling

    /// A password check that was let through and counted before it ran (see ``beginLoginAttempt``).
    struct LoginAttempt: Sendable, Equatable {
        var emailNormalized: String
        /// Consecutive failures with this attempt counted as one.
        var failures: Int
        /// The lock that was in place before this attempt (a passed one, or nil).
        var previousLockedUntil: Double?
    }

    /// Lets one password check for `email` through, or refuses it with `tooManyAttempts`, in one write
    /// transaction: the attempt is counted as a failure before the password is checked, and the lock that
    /// count calls for is set at once. Concurrent attempts (a batch, a pipelined burst, another process on
    /// the data directory) are therefore serialised by the write lock, and after the failure that locks no
    /// further attempt is let through until the lock passes, however they arrive. A success clears the
    /// count (``clearLoginFailures``); a check that could not run gives its count back (``refund``).
    ///
    /// The clock is read inside the transaction: a time taken before waiting for the write lock would be
    /// older than the lock another attempt set meanwhile, and the wait reported longer than the lock.
    func beginLoginAttempt(
        email: String, now clock: @escaping @Sendable () -> Date, throttle: LoginThrottle
    ) async throws -> LoginAttempt {
        let normalized = AccountValidator.normalizedEmail(email)
        return try await write { db -> LoginAttempt in
            let now = clock()
            let nowSeconds = now.timeIntervalSince1970
            let row = try db.queryOne(
                "SELECT failures, locked_until FROM login_attempts WHERE email_normalized = ?", [.text(normalized)])
            let failures = try row?.int("failures") ?? 0
            let lockedUntil = try row?.optionalDouble("locked_until")
            if let lockedUntil, let wait = LoginThrottle.secondsLeft(until: lockedUntil, now: now) {
                throw MovieError.tooManyAttempts(retryAfter: wait)
            }
            let counted = failures + 1
            let lock = throttle.lockDuration(afterFailures: counted).map { nowSeconds + $0 } ?? lockedUntil
            try db.run(
                """
                INSERT INTO login_attempts(email_normalized, failures, locked_until, last_failure_at)
                VALUES (?, ?, ?, ?)
                ON CONFLICT(email_normalized) DO UPDATE SET
                    failures = excluded.failures, locked_until = excluded.locked_until,
                    last_failure_at = excluded.last_failure_at
                """,
                [.text(normalized), .integer(Int64(counted)), lock.sqliteValue, .real(nowSeconds)])
            return LoginAttempt(emailNormalized: normalized, failures: counted, previousLockedUntil: lockedUntil)
        }
    }

    /// Gives back the count of an attempt whose password check could not run (Firebase unreachable, a
    /// storage failure): one failure less, and, when no other attempt was counted since, the lock as it was.
    func refund(_ attempt: LoginAttempt) async throws {
        try await write { db in
            try db.run(
                """
                UPDATE login_attempts SET failures = failures - 1,
                    locked_until = CASE WHEN failures = ? THEN ? ELSE locked_until END
                WHERE email_normalized = ? AND failures > 0
                """,
                [.integer(Int64(attempt.failures)), attempt.previousLockedUntil.sqliteValue,
                 .text(attempt.emailNormalized)])
            try db.run(
                "DELETE FROM login_attempts WHERE email_normalized = ? AND failures <= 0 AND locked_until IS NULL",
                [.text(attempt.emailNormalized)])
        }
    }

    /// Seconds until `email` may try again, or nil when it may try now (no attempt is counted).
    func loginLock(email: String, now: Date) async throws -> Int? {
        let normalized = AccountValidator.normalizedEmail(email)
        let lockedUntil = try await read { db in
            try db.queryOne("SELECT locked_until FROM login_attempts WHERE email_normalized = ?", [.text(normalized)])?
                .optionalDouble("locked_until")
        }
        guard let lockedUntil else { return nil }
        return LoginThrottle.secondsLeft(until: lockedUntil, now: now)
    }

    /// Forgets the failed attempts of `email` (after a successful login).
    func clearLoginFailures(email: String) async throws {
        let normalized = AccountValidator.normalizedEmail(email)
        try await write { db in
            try db.run("DELETE FROM login_attempts WHERE email_normalized = ?", [.text(normalized)])
        }
    }

    // MARK: Access

    func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await StorageErrors.mapping { try await database.read(body) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await StorageErrors.mapping { try await database.write(body) }
    }
}
