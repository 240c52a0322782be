import Foundation
import HTTPTransport
import SQLiteStore
import Synchronization
import Testing

@testable import MovieCore

/// How long these tests wait for what only a defect keeps from coming (the engine's state, the overlap of
/// commits): a loaded machine takes seconds, so a bound this far off never fails a correct engine.
private let hangFallback: Duration = .seconds(300)

@Suite struct ConflictRuleTests {
    func version(_ at: Int64, deleted: Bool = false, id: String = "aa") -> SyncVersion {
        SyncVersion(changedAt: at, deleted: deleted, changeID: id)
    }

    @Test func theLaterChangeWinsWhateverItDoes() {
        // An add made offline at 100 on one device, a removal made at 200 on another: the removal wins.
        #expect(ConflictRule.supersedes(version(200, deleted: true), version(100)))
        #expect(!ConflictRule.supersedes(version(100), version(200, deleted: true)))
        // The reverse: the later add wins.
        #expect(ConflictRule.supersedes(version(300), version(200, deleted: true)))
    }

    @Test func tiesAreBrokenTheSameWayEverywhere() {
        #expect(ConflictRule.supersedes(version(100, id: "01"), version(100, deleted: true, id: "ff")))
        #expect(!ConflictRule.supersedes(version(100, deleted: true, id: "ff"), version(100, id: "01")))
        #expect(ConflictRule.supersedes(version(100, id: "b0"), version(100, id: "a9")))
        #expect(!ConflictRule.supersedes(version(100, id: "a9"), version(100, id: "b0")))
    }

    @Test func aChangeDoesNotSupersedeItselfAndAnythingBeatsNothing() {
        #expect(!ConflictRule.supersedes(version(100), version(100)))
        #expect(ConflictRule.supersedes(version(0, deleted: true), nil))
    }

    @Test func ofAnyTwoDifferentChangesExactlyOneWins() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let a = version(Int64.random(in: 0...3, using: &generator), deleted: Bool.random(using: &generator),
                            id: String(Int.random(in: 0...3, using: &generator)))
            let b = version(Int64.random(in: 0...3, using: &generator), deleted: Bool.random(using: &generator),
                            id: String(Int.random(in: 0...3, using: &generator)))
            let wins = [ConflictRule.supersedes(a, b), ConflictRule.supersedes(b, a)].filter { $0 }.count
            #expect(wins == (a == b ? 0 : 1), "\(a) vs \(b)")
        }
    }
}

@Suite struct SyncOutboxTests {
    let harness: AccountsHarness
    let accounts: AccountService
    let clock: SyncTestClock
    let journal: SyncJournal
    let favorites: FavoritesStore
    let store: SyncStore

    init() throws {
        harness = try AccountsHarness()
        accounts = harness.service()
        let clock = SyncTestClock()
        self.clock = clock
        journal = SyncJournal(now: { clock.now })
        favorites = FavoritesStore(database: harness.movieStore.database, journal: journal)
        store = SyncStore(database: harness.movieStore.database)
    }

    func outbox() async throws -> [String] {
        try await harness.movieStore.database.read { db in
            try db.query("""
                SELECT o.kind, o.movie_id, v.deleted, o.change_id = v.change_id AS current
                FROM sync_outbox o JOIN sync_versions v USING (user_id, kind, movie_id) ORDER BY o.id
                """).map { row in
                "\(try row.string("kind")) \(try row.int("movie_id")) deleted=\(try row.int("deleted"))"
                    + (try row.int("current") == 1 ? "" : " stale")
            }
        }
    }

    @Test func eachChangeIsQueuedWithItsVersionAndTheLatestReplacesAnEarlierOne() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(551))
        #expect(try await outbox() == ["favorite 550 deleted=0", "favorite 551 deleted=0"])
        try await favorites.remove(userID: user.id, movieID: 550)
        #expect(try await outbox() == ["favorite 550 deleted=1", "favorite 551 deleted=0"])
        let pending = try await store.pending(userID: user.id, limit: 500)
        #expect(pending.map(\.movieID) == [550, 551])
        #expect(pending[0].version.deleted && pending[0].favorite == nil)
        #expect(pending[1].favorite?.movieJSON.contains("\"Movie 551\"") == true)
        #expect(try await store.times(userID: user.id).pending == 2)
    }

    @Test func aRefusedChangeQueuesNothing() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
        let before = try await store.pending(userID: user.id, limit: 10)
        _ = await movieError { try await favorites.add(userID: user.id, movie: FavoritesTests.movie(550)) }
        _ = await movieError { try await favorites.remove(userID: user.id, movieID: 999) }
        _ = await movieError { try await favorites.add(userID: "nobody", movie: FavoritesTests.movie(1)) }
        #expect(try await store.pending(userID: user.id, limit: 10) == before)
        #expect(try await outbox().count == 1)
    }

    @Test func aNewChangeIsLaterThanTheOneItReplacesEvenWhenTheClockWentBack() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        clock.now = Date(timeIntervalSince1970: 2_000_000_000)
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
        clock.now = Date(timeIntervalSince1970: 1_000_000_000)
        try await favorites.remove(userID: user.id, movieID: 550)
        let pending = try await store.pending(userID: user.id, limit: 10)
        #expect(pending[0].version.changedAt == 2_000_000_000_000 + 1)
    }

    @Test func aPushedEntryGoesUnlessANewerChangeReplacedIt() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(551))
        let pushing = try await store.pending(userID: user.id, limit: 10)
        try await favorites.remove(userID: user.id, movieID: 551)  // while the push is under way
        try await store.pushed(userID: user.id, pushing, at: 1)
        #expect(try await outbox() == ["favorite 551 deleted=1"])
        #expect(try await store.times(userID: user.id).lastPushedAt == 1)
    }

    func remote(_ movieID: Int, at: Int64, deleted: Bool = false, id: String) -> RemoteFavorite {
        RemoteFavorite(
            movieID: movieID, version: SyncVersion(changedAt: at, deleted: deleted, changeID: id),
            addedAt: deleted ? nil : "2026-12-01T10:00:00.000Z",
            movieJSON: deleted ? nil : String(decoding: try! JSONEncoder().encode(FavoritesTests.movie(movieID)),
                                              as: UTF8.self),
            syncedAt: 1, name: "users/u/favorites/\(movieID)")
    }

    @Test func pulledChangesAreAppliedUnderTheRule() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        clock.now = Date(timeIntervalSince1970: 1_000)  // local changes at 1,000,000 ms
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(551))
        let applied = try await store.apply(
            userID: user.id,
            favorites: [
                remote(550, at: 2_000_000, deleted: true, id: "r1"),  // later removal: wins
                remote(551, at: 500_000, deleted: true, id: "r2"),    // earlier removal: loses
                remote(552, at: 500_000, id: "r3"),                   // new here: arrives
            ],
            pulledThrough: 42, at: 7)
        #expect(applied == SyncStore.Applied(applied: 2, conflicts: 2, requeued: 0))
        #expect(try await favorites.list(userID: user.id).map(\.movieID).sorted() == [551, 552])
        // 550's pending add lost and is gone; 551's stays queued, so the remote copy follows it.
        #expect(try await outbox() == ["favorite 551 deleted=0"])
        let times = try await store.times(userID: user.id)
        #expect(times.pulledThrough == 42 && times.lastPulledAt == 7)
        // Pulling the same again changes nothing.
        let again = try await store.apply(
            userID: user.id, favorites: [remote(550, at: 2_000_000, deleted: true, id: "r1")],
            pulledThrough: 42, at: 8)
        #expect(again == SyncStore.Applied())
    }

    @Test func anOlderRemoteCopyOfAPushedChangeIsCorrected() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        clock.now = Date(timeIntervalSince1970: 1_000)
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
        try await store.pushed(userID: user.id, try await store.pending(userID: user.id, limit: 10), at: 1)
        // Another device overwrote it with an older change (it pushed after us): ours goes out again.
        let applied = try await store.apply(
            userID: user.id, favorites: [remote(550, at: 10, deleted: true, id: "old")], pulledThrough: nil, at: 2)
        #expect(applied.requeued == 1 && applied.applied == 0)
        #expect(try await outbox() == ["favorite 550 deleted=0"])
    }

    @Test func oldTombstonesArePurgedOncePushedAndNotIfChangedSince() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        clock.now = Date(timeIntervalSince1970: 1_000)
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
        try await favorites.remove(userID: user.id, movieID: 550)
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(13))
        try await favorites.remove(userID: user.id, movieID: 13)
        #expect(try await store.expiredTombstones(userID: user.id, before: 5_000_000, limit: 10).isEmpty)  // pending
        try await store.pushed(userID: user.id, try await store.pending(userID: user.id, limit: 10), at: 1)
        let expired = try await store.expiredTombstones(userID: user.id, before: 5_000_000, limit: 10)
        #expect(expired.map(\.movieID).sorted() == [13, 550])
        #expect(try await store.expiredTombstones(userID: user.id, before: 1_000, limit: 10).isEmpty)  // too young
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(13))  // changed since: kept
        try await store.forgetTombstones(userID: user.id, expired)
        let left = try await harness.movieStore.database.read { db in
            try db.query("SELECT movie_id, deleted FROM sync_versions ORDER BY movie_id").map {
                "\(try $0.int("movie_id")):\(try $0.int("deleted"))"
            }
        }
        #expect(left == ["13:0"])
    }

    @Test func favoritesKeptBeforeSyncAreQueuedOnce() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await harness.favorites.add(userID: user.id, movie: FavoritesTests.movie(1))  // no journal
        try await store.queueUnversioned(userID: user.id)
        try await store.queueUnversioned(userID: user.id)
        #expect(try await outbox() == ["favorite 1 deleted=0"])
    }

    @Test func deletingTheUserLeavesNothingOfThemPending() async throws {
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await favorites.add(userID: user.id, movie: FavoritesTests.movie(550))
        try await accounts.deleteAccount(password: "pw1")
        #expect(try await outbox().isEmpty)
    }
}

@Suite struct SyncDocumentTests {
    @Test func firestoreTimesRoundTripInMicroseconds() {
        #expect(FirestoreTime.microseconds("2026-12-01T22:00:14.415351Z") == 1_796_162_414_415_351)
        #expect(FirestoreTime.microseconds("2026-12-01T22:00:14Z") == 1_796_162_414_000_000)
        #expect(FirestoreTime.microseconds("2026-12-01T22:00:14.4Z") == 1_796_162_414_400_000)
        #expect(FirestoreTime.string(microseconds: 1_796_162_414_000_351) == "2026-12-01T22:00:14.000351Z")
        #expect(FirestoreTime.string(milliseconds: 1_796_162_414_123) == "2026-12-01T22:00:14.123000Z")
        #expect(FirestoreTime.microseconds("yesterday") == nil)
    }

    func document(_ fields: [String: FirestoreValue], id: Int = 550) -> FirestoreDocument {
        FirestoreDocument(name: "projects/p/databases/(default)/documents/users/u/favorites/\(id)", fields: fields)
    }

    var good: [String: FirestoreValue] {
        [
            "movieId": .integer(550), "deleted": .boolean(false), "changedAt": .timestamp("2026-12-01T10:00:00.123Z"),
            "changeId": .string("abc"), "syncedAt": .timestamp("2026-12-01T10:00:01Z"),
            "addedAt": .timestamp("2026-12-01T09:00:00.5Z"),
            "movie": .string(String(decoding: try! JSONEncoder().encode(FavoritesTests.movie(550)), as: UTF8.self)),
        ]
    }

    @Test func aWellFormedFavoriteIsRead() throws {
        let favorite = try #require(SyncDocuments.favorite(document(good)))
        #expect(favorite.movieID == 550 && favorite.addedAt == "2026-12-01T09:00:00.500Z")
        #expect(favorite.version == SyncVersion(changedAt: 1_796_119_200_123, deleted: false, changeID: "abc"))
    }

    @Test func malformedFavoritesAreRefused() {
        var cases: [[String: FirestoreValue]] = []
        for (key, value) in [
            ("movieId", FirestoreValue.integer(551)), ("movieId", .string("550")), ("deleted", .null),
            ("changedAt", .string("now")), ("changeId", .string("")), ("movie", .string("{}")),
            ("movie", .string("not json")), ("addedAt", .null), ("syncedAt", .null),
        ] {
            var fields = good
            fields[key] = value
            cases.append(fields)
        }
        for fields in cases {
            #expect(SyncDocuments.favorite(document(fields)) == nil, "\(fields)")
        }
        var tombstone = good
        tombstone["deleted"] = .boolean(true)
        tombstone["movie"] = nil
        tombstone["addedAt"] = nil
        #expect(SyncDocuments.favorite(document(tombstone))?.version.deleted == true)
    }
}

/// A settable clock for journal stamps.
final class SyncTestClock: Sendable {
    private let value = Mutex(Date(timeIntervalSince1970: 1_900_000_000))
    var now: Date {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// Firestore answering every request with one status; requests are counted.
final class FixedFirestore: HTTPClient {
    let status: Int
    let name: String
    private let count = Mutex(0)
    var requests: Int { count.withLock { $0 } }

    init(status: Int, name: String) {
        self.status = status
        self.name = name
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        count.withLock { $0 += 1 }
        return HTTPResponse(
            statusCode: status, body: Data(#"{"error":{"code":\#(status),"message":"no","status":"\#(name)"}}"#.utf8))
    }
}

extension AccountsHarness {
    /// Firebase accounts on this harness's store, answered by `firebase`.
    func firebaseAccounts(_ firebase: ScriptedFirebase) -> AccountService {
        let client = FirebaseAuthClient(
            configuration: FirebaseConfiguration(apiKey: "k", emulatorHost: "127.0.0.1:9099"), http: firebase)
        return AccountService(store: store, provider: FirebaseAccountProvider(client: client, store: store))
    }
}

@Suite struct SyncEngineRetryTests {
    let harness: AccountsHarness
    let firebase = ScriptedFirebase()
    let accounts: AccountService

    init() throws {
        harness = try AccountsHarness()
        accounts = harness.firebaseAccounts(firebase)
    }

    func engine(_ firestore: FixedFirestore, retryBase: Duration = .milliseconds(5)) async throws -> SyncEngine {
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn())
        _ = try await accounts.register(email: "ada@example.com", password: "secret1")
        return SyncEngine(
            configuration: SyncConfiguration(projectID: "p", emulatorHost: "127.0.0.1:8080"),
            store: SyncStore(database: harness.movieStore.database), accounts: accounts,
            client: FirestoreClient(
                configuration: SyncConfiguration(projectID: "p", emulatorHost: "127.0.0.1:8080"), http: firestore),
            retryBase: retryBase)
    }

    /// Polls (each look is a cheap read) until `condition` holds or ``hangFallback`` passes.
    func eventually(_ condition: () async -> Bool) async -> Bool {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < hangFallback {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }

    @Test func aRefusalByTheRulesIsTriedThreeTimesThenNotAgain() async throws {
        let firestore = FixedFirestore(status: 403, name: "PERMISSION_DENIED")
        let engine = try await engine(firestore)
        await engine.start()
        // The last refusal counted by the fake is not yet the engine's state: that comes when the engine has
        // read the answer (on a loaded machine, a while after).
        #expect(await eventually {
            let status = await engine.status()
            return firestore.requests >= SyncEngine.maxRefusals && status.state == .error
                && status.lastError?.contains("security rules") == true
        })
        // Retries come 5, 10, 20 ms apart: had a fourth been scheduled, it would have come by now.
        try await Task.sleep(for: .milliseconds(300))
        #expect(firestore.requests == SyncEngine.maxRefusals)
        // sync.now tries again, once.
        await #expect(throws: SyncEngine.Failure.self) { try await engine.syncNow() }
        #expect(firestore.requests == SyncEngine.maxRefusals + 1)
        await engine.close()
    }

    @Test func readingListsWhileFailingDoesNotBypassTheBackoff() async throws {
        let firestore = FixedFirestore(status: 503, name: "UNAVAILABLE")
        let engine = try await engine(firestore, retryBase: .seconds(3600))
        await engine.start()
        #expect(await eventually { await engine.status().state == .error })
        for _ in 0..<20 { await engine.pullIfStale() }
        try await Task.sleep(for: .milliseconds(200))
        #expect(firestore.requests == 1)
        await engine.close()
    }

    @Test func anUnavailableServiceIsRetriedWithBackoff() async throws {
        let firestore = FixedFirestore(status: 503, name: "UNAVAILABLE")
        let engine = try await engine(firestore)
        await engine.start()
        // Between a failure and its retry the state is `error`; while a retry is under way, `syncing`: looked
        // at once after the sixth request, the state was that retry's on a loaded machine.
        #expect(await eventually {
            let status = await engine.status()
            return firestore.requests >= 6 && status.state == .error
                && status.lastError?.contains("retrying later") == true
        })
        await engine.close()
    }
}

/// Firestore answering pulls with nothing and commits with success, except a commit holding a write to
/// `failing` (503 while set); a commit is held until `concurrency` are in flight (or ``hangFallback`` passed), so a
/// push that did not overlap its commits shows as one in flight at a time.
final class CommittingFirestore: HTTPClient {
    private struct State {
        var inFlight = 0
        var maxInFlight = 0
        var committed: [Int] = []
        var answered = 0
    }
    private let state = Mutex(State())
    let failing = Mutex<Int?>(nil)
    let concurrency: Int

    init(concurrency: Int) {
        self.concurrency = concurrency
    }

    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    /// The movie ids of the successful commits' writes, in the order they were answered.
    var committed: [Int] { state.withLock { $0.committed } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.url.path
        if path.hasSuffix(":runQuery") { return HTTPResponse(statusCode: 200, body: Data("[]".utf8)) }
        guard path.hasSuffix(":commit") else {
            return HTTPResponse(statusCode: 404, body: Data(#"{"error":{"code":404,"status":"NOT_FOUND"}}"#.utf8))
        }
        // JSONEncoder writes "/" as "\/".
        let text = String(decoding: request.body ?? Data(), as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
        let ids = text.components(separatedBy: "/favorites/").dropFirst().compactMap { part in
            Int(part.prefix { $0.isNumber })
        }
        state.withLock {
            $0.inFlight += 1
            $0.maxInFlight = max($0.maxInFlight, $0.inFlight)
        }
        let started = ContinuousClock.now
        while state.withLock({ $0.inFlight < concurrency && $0.answered == 0 }),
              ContinuousClock.now - started < hangFallback {
            try await Task.sleep(for: .milliseconds(1))
        }
        let fails = failing.withLock { failing in failing.map { ids.contains($0) } ?? false }
        state.withLock {
            $0.inFlight -= 1
            $0.answered += 1
            if !fails { $0.committed += ids }
        }
        if fails {
            return HTTPResponse(statusCode: 503, body: Data(#"{"error":{"code":503,"status":"UNAVAILABLE"}}"#.utf8))
        }
        return HTTPResponse(statusCode: 200, body: Data(#"{"writeResults":[]}"#.utf8))
    }
}

@Suite struct SyncEnginePushTests {
    let harness: AccountsHarness
    let firebase = ScriptedFirebase()
    let accounts: AccountService

    init() throws {
        harness = try AccountsHarness()
        accounts = harness.firebaseAccounts(firebase)
    }

    @Test func commitsRunSideBySideAndOnlyACommittedBatchLeavesTheOutbox() async throws {
        firebase.script("accounts:signUp", ScriptedFirebase.signedIn())
        let user = try await accounts.register(email: "ada@example.com", password: "secret1")
        let favorites = FavoritesStore(database: harness.movieStore.database, journal: SyncJournal())
        let ids = Array(1...350)
        for id in ids { try await favorites.add(userID: user.id, movie: FavoritesTests.movie(id)) }
        let firestore = CommittingFirestore(concurrency: SyncEngine.pushConcurrency)
        firestore.failing.withLock { $0 = 150 }  // in the second batch of 100
        let configuration = SyncConfiguration(projectID: "p", emulatorHost: "127.0.0.1:8080")
        let store = SyncStore(database: harness.movieStore.database)
        let engine = SyncEngine(
            configuration: configuration, store: store, accounts: accounts,
            client: FirestoreClient(configuration: configuration, http: firestore), retryBase: .seconds(3600))

        await #expect(throws: SyncEngine.Failure.self) { try await engine.syncNow() }
        #expect(firestore.maxInFlight == SyncEngine.pushConcurrency)
        // The batches around the failed one were committed and left; the failed one is still queued.
        let left = try await store.pending(userID: user.id, limit: 1000).map(\.movieID)
        #expect(left == Array(101...200))
        #expect(Set(firestore.committed) == Set(ids).subtracting(101...200))

        firestore.failing.withLock { $0 = nil }
        let report = try await engine.syncNow()
        #expect(report.pushed == 100 && report.pending == 0)
        #expect(firestore.committed.sorted() == ids)
        await engine.close()
    }
}
