import Foundation
import HTTPTransport
import Synchronization
import TMDB
import Testing

@testable import MovieCore

/// Firebase Auth as a script: per operation (`accounts:signUp`, `token`, …) a queue of replies; every
/// request is recorded.
final class ScriptedFirebase: HTTPClient {
    enum Reply: Sendable {
        case json(Int, String)
        case offline
    }

    struct Request: Sendable {
        var operation: String
        var url: URL
        var body: String
    }

    private let state = Mutex<(replies: [String: [Reply]], requests: [Request])>(([:], []))

    func script(_ operation: String, _ replies: Reply...) {
        state.withLock { $0.replies[operation, default: []] += replies }
    }

    var requests: [Request] { state.withLock { $0.requests } }
    var operations: [String] { requests.map(\.operation) }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let operation = request.url.lastPathComponent
        let reply = state.withLock { state -> Reply? in
            state.requests.append(Request(
                operation: operation, url: request.url, body: String(decoding: request.body ?? Data(), as: UTF8.self)))
            guard var queue = state.replies[operation], !queue.isEmpty else { return nil }
            let reply = queue.removeFirst()
            state.replies[operation] = queue
            return reply
        }
        switch reply {
        case .json(let status, let body):
            return HTTPResponse(statusCode: status, body: Data(body.utf8))
        case .offline:
            throw HTTPTransportError.offline(code: -1004)
        case nil:
            return HTTPResponse(statusCode: 500, body: Data("{}".utf8))
        }
    }

    static func error(_ message: String, status: Int = 400) -> Reply {
        .json(status, #"""
            {"error":{"code":\#(status),"message":"\#(message)",
             "errors":[{"message":"\#(message)","domain":"global","reason":"invalid"}]}}
            """#)
    }

    static func signedIn(localId: String = "uid-ada", email: String = "ada@example.com", idToken: String = "id-1",
                         refreshToken: String = "refresh-1", expiresIn: String = "3600") -> Reply {
        .json(200, """
            {"kind":"identitytoolkit#VerifyPasswordResponse","localId":"\(localId)","email":"\(email)",
             "displayName":"","idToken":"\(idToken)","registered":true,"refreshToken":"\(refreshToken)",
             "expiresIn":"\(expiresIn)"}
            """)
    }

    static func lookup(
        localId: String = "uid-ada", email: String = "ada@example.com", displayName: String = "Ada"
    ) -> Reply {
        .json(200, """
            {"kind":"identitytoolkit#GetAccountInfoResponse","users":[{"localId":"\(localId)","email":"\(email)",
             "displayName":"\(displayName)","createdAt":"1700000000000","emailVerified":false}]}
            """)
    }
}

@Suite struct FirebaseAccountsTests {
    static let apiKey = "AIzaTestKey-do-not-leak"
    let harness: AccountsHarness
    let firebase = ScriptedFirebase()
    let accounts: AccountService

    init() throws {
        harness = try AccountsHarness()
        let clock = harness.clock
        let client = FirebaseAuthClient(
            configuration: FirebaseConfiguration(apiKey: Self.apiKey, emulatorHost: "127.0.0.1:9099"), http: firebase)
        let store = harness.store
        accounts = AccountService(
            store: store, provider: FirebaseAccountProvider(client: client, store: store, now: { clock.now }),
            now: { clock.now })
    }

    @Test func urlsFollowTheSDKsEmulatorForm() throws {
        let production = FirebaseConfiguration(apiKey: "k1")
        #expect(production.url(.accounts("signUp"))?.absoluteString
            == "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=k1")
        #expect(production.url(.token)?.absoluteString == "https://securetoken.googleapis.com/v1/token?key=k1")
        let emulator = FirebaseConfiguration(apiKey: "k1", emulatorHost: "127.0.0.1:9099")
        #expect(emulator.url(.accounts("signInWithPassword"))?.absoluteString
            == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k1")
        #expect(emulator.url(.token)?.absoluteString
            == "http://127.0.0.1:9099/securetoken.googleapis.com/v1/token?key=k1")
        #expect(FirebaseConfiguration(apiKey: "k1", emulatorHost: "http://localhost:9099/").url(.token)?.absoluteString
            == "http://localhost:9099/securetoken.googleapis.com/v1/token?key=k1")
        #expect(!"\(production)".contains("k1"))
    }

    @Test func registerSignsUpAndKeepsOnlyTheRefreshToken() async throws {
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn())
        let user = try await accounts.register(
            email: "ada@example.com", password: "secret1", profile: ProfileChanges(displayName: "Ada", bio: "Hi"))
        #expect(user.id == "uid-ada")
        #expect(user.provider == .firebase)
        #expect(firebase.operations == ["accounts:signUp"])
        let body = try #require(firebase.requests.first?.body)
        #expect(body.contains(#""returnSecureToken":true"#))
        #expect(firebase.requests.first?.url.query == "key=\(Self.apiKey)")
        let current = try #require(try await harness.store.currentSession())
        #expect(current.session.refreshToken == "refresh-1")
        #expect(current.user.passwordHash == nil)
        #expect(current.user.user.profile == UserProfile(displayName: "Ada", bio: "Hi"))
        #expect(try await harness.count("SELECT count(*) FROM sessions WHERE refresh_token = 'id-1'") == 0)
        // Stored sealed: the column holds neither token in clear.
        #expect(try await harness.count("SELECT count(*) FROM sessions WHERE refresh_token LIKE 'v1:%'") == 1)
        #expect(try await harness.count("SELECT count(*) FROM sessions WHERE refresh_token LIKE '%refresh-1%'") == 0)
    }

    /// The upgrade drops refresh tokens stored in clear by earlier versions and keeps sealed ones.
    @Test func upgradeDropsRefreshTokensStoredInClear() async throws {
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn())
        _ = try await accounts.register(email: "ada@example.com", password: "secret1", profile: ProfileChanges())
        // As a version before the upgrade left the database: without its record, and without the schema
        // stamp (versions before the stamp left `user_version` at 0).
        let reapplyUpgrade =
            "DELETE FROM schema_migrations WHERE identifier = 'v2-sealed-refresh-tokens'; PRAGMA user_version = 0"
        try await harness.movieStore.database.write { db in try db.execute(reapplyUpgrade) }
        _ = try MovieStore(directory: harness.directory)
        #expect(try await harness.count("SELECT count(*) FROM sessions WHERE refresh_token LIKE 'v1:%'") == 1)

        try await harness.movieStore.database.write { db in
            try db.execute("UPDATE sessions SET refresh_token = 'refresh-in-clear'")
            try db.execute(reapplyUpgrade)
        }
        _ = try MovieStore(directory: harness.directory)
        #expect(try await harness.count("SELECT count(*) FROM sessions WHERE refresh_token IS NOT NULL") == 0)
        #expect(try await harness.count("SELECT count(*) FROM sessions") == 1)
    }

    /// Without a sealer (no key file) the refresh token is kept in memory only, never written.
    @Test func withoutASealerNoRefreshTokenIsWritten() async throws {
        let clock = harness.clock
        let store = AccountStore(database: harness.movieStore.database, sealer: nil)
        let client = FirebaseAuthClient(
            configuration: FirebaseConfiguration(apiKey: Self.apiKey, emulatorHost: "127.0.0.1:9099"), http: firebase)
        let unsealed = AccountService(
            store: store, provider: FirebaseAccountProvider(client: client, store: store, now: { clock.now }),
            now: { clock.now })
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn())
        _ = try await unsealed.register(email: "ada@example.com", password: "secret1", profile: ProfileChanges())
        #expect(try await harness.count("SELECT count(*) FROM sessions") == 1)
        #expect(try await harness.count("SELECT count(*) FROM sessions WHERE refresh_token IS NOT NULL") == 0)
    }

    @Test func invalidInputSendsNothing() async throws {
        #expect(await movieError { _ = try await accounts.register(email: "ada@", password: "ab") } != nil)
        #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "ab") } != nil)
        #expect(firebase.requests.isEmpty)
    }

    @Test(arguments: [
        ("EMAIL_EXISTS", MovieError.emailTaken),
        ("WEAK_PASSWORD : Password should be at least 6 characters", MovieError.validationFailed([
            FieldProblem(field: "password", problem: "is too weak: Password should be at least 6 characters"),
        ])),
        ("TOO_MANY_ATTEMPTS_TRY_LATER : Try again later.", MovieError.tooManyAttempts(retryAfter: 60)),
        ("OPERATION_NOT_ALLOWED", MovieError.upstream(
            httpStatus: 400, retryable: false,
            message: "Email and password sign-in is not enabled for this Firebase project")),
        ("API key not valid. Please pass a valid API key.", MovieError.upstreamUnauthorized(
            "The sign-in service rejected the API key")),
    ])
    func signUpErrorsMapLikeLocalOnes(_ message: String, _ expected: MovieError) async throws {
        firebase.script("accounts:signUp", ScriptedFirebase.error(message))
        let error = await movieError { _ = try await accounts.register(email: "ada@example.com", password: "abc") }
        #expect(error == expected)
        #expect(try await harness.count("SELECT count(*) FROM users") == 0)
    }

    @Test(arguments: ["INVALID_LOGIN_CREDENTIALS", "EMAIL_NOT_FOUND", "INVALID_PASSWORD", "USER_DISABLED"])
    func signInFailuresAreInvalidCredentialsAndThrottled(_ message: String) async throws {
        for _ in 1...5 { firebase.script("accounts:signInWithPassword", ScriptedFirebase.error(message)) }
        for _ in 1...5 {
            #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "abc") }
                == .invalidCredentials)
        }
        #expect(await movieError { _ = try await accounts.login(email: "ada@example.com", password: "abc") }
            == .tooManyAttempts(retryAfter: 30))
        #expect(firebase.requests.count == 5)
    }

    @Test func concurrentGuessesSendAtMostFiveSignIns() async throws {
        for _ in 1...100 {
            firebase.script("accounts:signInWithPassword", ScriptedFirebase.error("INVALID_LOGIN_CREDENTIALS"))
        }
        let accounts = self.accounts
        let outcomes = await withTaskGroup(of: MovieError?.self) { group in
            for index in 0..<100 {
                group.addTask {
                    await movieError { _ = try await accounts.login(email: "ada@example.com", password: "bad\(index)") }
                }
            }
            var outcomes: [MovieError?] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(firebase.requests.count == 5)
        #expect(outcomes.filter { $0 == .invalidCredentials }.count == 5)
        #expect(outcomes.filter { $0 == .tooManyAttempts(retryAfter: 30) }.count == 95)
    }

    /// A check that could not run (the service unreachable) gives its count back.
    @Test func anAttemptThatReachedNoOneDoesNotCount() async throws {
        for _ in 1...3 {
            firebase.script("accounts:signInWithPassword", ScriptedFirebase.error("INVALID_LOGIN_CREDENTIALS"))
        }
        for _ in 1...3 {
            _ = await movieError { _ = try await accounts.login(email: "ada@example.com", password: "abc") }
        }
        for _ in 1...4 { firebase.script("accounts:signInWithPassword", .offline) }
        for _ in 1...4 {
            _ = await movieError { _ = try await accounts.login(email: "ada@example.com", password: "abc") }
        }
        #expect(try await harness.count("SELECT failures FROM login_attempts") == 3)
        #expect(try await harness.count("SELECT count(*) FROM login_attempts WHERE locked_until IS NOT NULL") == 0)
    }

    @Test func anUnreachableServiceIsARetryableErrorWithoutTheKey() async throws {
        firebase.script("accounts:signInWithPassword", .offline)
        let error = await movieError { _ = try await accounts.login(email: "ada@example.com", password: "abc") }
        #expect(error == .upstream(httpStatus: 503, retryable: true, message: "The sign-in service is unreachable"))
        #expect(!"\(String(describing: error))".contains(Self.apiKey))
        #expect(try await harness.count("SELECT count(*) FROM login_attempts") == 0)
    }

    @Test func loginLooksTheUserUpAndStoresTheirRow() async throws {
        firebase.script("accounts:signInWithPassword", ScriptedFirebase.signedIn())
        firebase.script("accounts:lookup", ScriptedFirebase.lookup())
        let user = try await accounts.login(email: "Ada@Example.com", password: "secret1")
        #expect(user.id == "uid-ada")
        #expect(user.profile.displayName == "Ada")
        #expect(user.createdAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(firebase.operations == ["accounts:signInWithPassword", "accounts:lookup"])
        #expect(firebase.requests[1].body == #"{"idToken":"id-1"}"#)
        #expect(try await accounts.currentUser()?.id == "uid-ada")
    }

    @Test func aDisplayNameOurRulesRefuseIsNotTakenFromFirebase() async throws {
        firebase.script("accounts:signInWithPassword", ScriptedFirebase.signedIn())
        firebase.script("accounts:lookup", ScriptedFirebase.lookup(displayName: "Ada\\u202Egnp.exe"))
        let user = try await accounts.login(email: "ada@example.com", password: "secret1")
        #expect(user.profile.displayName == nil)
    }

    @Test func anExpiredIDTokenIsRefreshedBeforeUse() async throws {
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn(expiresIn: "3600"))
        _ = try await accounts.register(email: "ada@example.com", password: "secret1")
        harness.clock.advance(3600)
        firebase.script("token", .json(200, """
            {"expires_in":"3600","token_type":"Bearer","refresh_token":"refresh-2","id_token":"id-2",
             "user_id":"uid-ada","project_id":"demo"}
            """))
        firebase.script("accounts:update", .json(200, #"{"localId":"uid-ada","displayName":"Ada L."}"#))
        let user = try await accounts.update(profile: ProfileChanges(displayName: "Ada L."))
        #expect(user.profile.displayName == "Ada L.")
        #expect(firebase.operations == ["accounts:signUp", "token", "accounts:update"])
        #expect(firebase.requests[1].body == "grant_type=refresh_token&refresh_token=refresh-1")
        #expect(firebase.requests[2].body.contains(#""idToken":"id-2""#))
        #expect(try await harness.store.currentSession()?.session.refreshToken == "refresh-2")
    }

    @Test func aRefusedTokenIsRefreshedOnceAndARevokedSessionEnds() async throws {
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn())
        _ = try await accounts.register(email: "ada@example.com", password: "secret1")
        firebase.script("accounts:update", ScriptedFirebase.error("TOKEN_EXPIRED"))
        firebase.script("token", ScriptedFirebase.error("TOKEN_EXPIRED"))
        let error = await movieError {
            _ = try await accounts.update(profile: ProfileChanges(displayName: "X"))
        }
        #expect(error == .loginRequired)
        #expect(firebase.operations == ["accounts:signUp", "accounts:update", "token"])
        #expect(try await accounts.currentUser() == nil)
        #expect(try await harness.count("SELECT count(*) FROM sessions") == 0)
    }

    @Test func passwordChangeReauthenticatesAndKeepsTheNewTokens() async throws {
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn())
        _ = try await accounts.register(email: "ada@example.com", password: "secret1")
        firebase.script("accounts:signInWithPassword", ScriptedFirebase.error("INVALID_LOGIN_CREDENTIALS"))
        #expect(await movieError { _ = try await accounts.update(newPassword: "secret2", currentPassword: "bad") }
            == .invalidCredentials)
        firebase.script(
            "accounts:signInWithPassword", ScriptedFirebase.signedIn(idToken: "id-re", refreshToken: "refresh-re"))
        firebase.script("accounts:update", .json(200, """
            {"localId":"uid-ada","idToken":"id-new","refreshToken":"refresh-new","expiresIn":"3600"}
            """))
        _ = try await accounts.update(newPassword: "secret2", currentPassword: "secret1")
        #expect(firebase.requests.last?.body.contains(#""idToken":"id-re""#) == true)
        #expect(try await harness.store.currentSession()?.session.refreshToken == "refresh-new")
    }

    @Test func deleteRemovesTheAccountThereAndHere() async throws {
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn())
        let user = try await accounts.register(email: "ada@example.com", password: "secret1")
        try await harness.favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
        firebase.script("accounts:signInWithPassword", ScriptedFirebase.signedIn(idToken: "id-re"))
        firebase.script("accounts:delete", .json(200, #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#))
        try await accounts.deleteAccount(password: "secret1")
        #expect(firebase.operations.suffix(2) == ["accounts:signInWithPassword", "accounts:delete"])
        #expect(try await harness.count("SELECT count(*) FROM users") == 0)
        #expect(try await harness.count("SELECT count(*) FROM favorites") == 0)
        #expect(try await accounts.currentUser() == nil)
    }
}

extension FirebaseAccountsTests {
    @Test func aNewFirebaseAccountWithAnOldEmailReplacesTheStaleRow() async throws {
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn(localId: "uid-old"))
        _ = try await accounts.register(email: "ada@example.com", password: "secret1")
        try await accounts.logout()
        // Deleted at Firebase meanwhile, and registered again elsewhere: a new localId for the same email.
        firebase.script("accounts:signInWithPassword", ScriptedFirebase.signedIn(localId: "uid-new"))
        firebase.script("accounts:lookup", ScriptedFirebase.lookup(localId: "uid-new"))
        let user = try await accounts.login(email: "ada@example.com", password: "secret1")
        #expect(user.id == "uid-new")
        #expect(try await harness.count("SELECT count(*) FROM users") == 1)
    }
}
