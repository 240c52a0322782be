import Foundation
import JSONRPC
import SQLiteStore
import Testing

@testable import MovieCore
@testable import MovieRPC

/// A server's context on a fresh data directory (local accounts at a test cost); removed at the end.
private final class ServerHarness: Sendable {
    let directory: DataDirectory
    let server: MovieServer

    init(scope: ServicesConfiguration.EventsScope = .user, maxEvents: Int = 1_000_000) throws {
        directory = DataDirectory(path: NSTemporaryDirectory() + "EventsListCacheTests-" + UUID().uuidString)
        var configuration = ServerConfiguration(dataDirectory: directory)
        configuration.passwordIterations = 1000
        configuration.eventsScope = scope
        configuration.maxEvents = maxEvents
        server = try MovieServer(configuration: configuration)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory.path)
    }

    var context: ServerContext { server.context }
    var services: MovieServices { server.context.services }

    /// `events.list` as a request gets it.
    func list(_ params: String = #"{"limit":50}"#) async throws -> Data {
        let decoded = try JSONDecoder().decode(EventsList.Params.self, from: Data(params.utf8))
        return Data(try await EventsList.handle(
            decoded, context: context, request: RequestContext(id: nil, method: EventsList.name)
        ).writtenJSON)
    }

    /// The same page built from the log without the cache.
    func uncached(_ filter: EventFilter = EventFilter(), limit: Int = 50, after cursor: EventCursor? = nil)
        async throws -> Data
    {
        let page = try await services.events.list(
            filter, viewer: await services.eventViewer(), limit: limit, after: cursor)
        return Data(EncodedJSON(try EventPageResult(page)).bytes)
    }

    /// Whether the first page (`{"limit":50}`) is kept at the log's current revision.
    func firstPageIsKept() async throws -> Bool {
        let key = EventsListCache.Key(
            viewer: await services.eventViewer(), filter: EventFilter(), limit: 50, cursor: nil)
        return context.eventsListCache.answer(for: key, revision: try await services.events.revision()) != nil
    }

    /// Another process's event log on the same data directory.
    func otherProcess() throws -> (MovieStore, EventLog) {
        let store = try MovieStore(directory: directory)
        return (store, EventLog(database: store.database))
    }

    func add(_ index: Int = 0, name: String = "test.added", userID: String? = nil) async throws -> StoredEvent {
        try await services.events.add(
            name: name, timestampMillis: 1_780_000_000_000 + Int64(index), params: ["n": .int(index)], userID: userID)
    }
}

private func ids(_ json: Data) throws -> [Int64] {
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    let events = try #require(object["events"] as? [[String: Any]])
    return events.compactMap { ($0["id"] as? NSNumber)?.int64Value }
}

/// Lists until the first page is kept, and checks that it is served with the uncached bytes.
private func keptFirstPage(_ harness: ServerHarness) async throws -> Data {
    let first = try await harness.list()
    let again = try await harness.list()
    #expect(try await harness.firstPageIsKept())
    #expect(first == again)
    #expect(again == (try await harness.uncached()))
    return again
}

@Suite("events.list cache")
struct EventsListCacheTests {
    @Test("kept pages are served with exactly the bytes of an uncached page, every page and filter")
    func keptBytesMatchUncached() async throws {
        let harness = try ServerHarness()
        for index in 0..<130 { _ = try await harness.add(index, name: index % 3 == 0 ? "other" : "test.added") }
        _ = try await keptFirstPage(harness)
        var cursor: EventCursor?
        repeat {
            let params = cursor.map { #"{"limit":50,"cursor":"\#($0.token)"}"# } ?? #"{"limit":50}"#
            let cold = try await harness.list(params)
            #expect(try await harness.list(params) == cold)
            #expect(cold == (try await harness.uncached(after: cursor)))
            let object = try #require(try JSONSerialization.jsonObject(with: cold) as? [String: Any])
            cursor = (object["nextCursor"] as? String).flatMap(EventCursor.init(token:))
        } while cursor != nil
        let named = try await harness.list(#"{"limit":7,"name":"other"}"#)
        #expect(try await harness.list(#"{"limit":7,"name":"other"}"#) == named)
        #expect(named == (try await harness.uncached(EventFilter(name: "other"), limit: 7)))
        #expect(named != (try await harness.list(#"{"limit":7}"#)))
    }

    @Test("an add is seen at once")
    func addInvalidates() async throws {
        let harness = try ServerHarness()
        _ = try await harness.add()
        let before = try await keptFirstPage(harness)
        let added = try await harness.add(1)
        let after = try await harness.list()
        #expect(after != before)
        #expect(try ids(after).first == added.id)
        #expect(after == (try await harness.uncached()))
    }

    @Test("an event recorded just before (still buffered) is seen")
    func recordedEventIsSeen() async throws {
        let harness = try ServerHarness()
        _ = try await harness.add()
        _ = try await keptFirstPage(harness)
        await harness.services.record(.genresOpened)
        let after = try await harness.list()
        #expect(try ids(after).count == 2)
        #expect(after == (try await harness.uncached()))
    }

    @Test("a delete is seen, the newest event's included")
    func deleteInvalidates() async throws {
        let harness = try ServerHarness()
        let older = try await harness.add(0)
        let newest = try await harness.add(1)
        _ = try await keptFirstPage(harness)
        #expect(try await harness.services.events.delete(ids: [newest.id]).deleted == [newest.id])
        #expect(try ids(try await harness.list()) == [older.id])
        _ = try await keptFirstPage(harness)
        #expect(try await harness.services.events.delete(ids: [older.id]).deleted == [older.id])
        #expect(try ids(try await harness.list()) == [])
    }

    @Test("another process on the same data directory adding, then deleting, is seen")
    func otherProcessInvalidates() async throws {
        let harness = try ServerHarness()
        _ = try await harness.add()
        let (store, other) = try harness.otherProcess()
        _ = try await keptFirstPage(harness)
        let theirs = try await other.add(name: "other.process", timestampMillis: 1_790_000_000_000, params: [:], userID: nil)
        #expect(try ids(try await harness.list()).first == theirs.id)
        _ = try await keptFirstPage(harness)
        #expect(try await other.delete(ids: [theirs.id]).deleted == [theirs.id])
        #expect(!(try ids(try await harness.list())).contains(theirs.id))
        await other.close()
        try await store.database.close()
    }

    @Test("an update of a stored row by anyone is seen")
    func updateInvalidates() async throws {
        let harness = try ServerHarness()
        _ = try await harness.add()
        let before = try await keptFirstPage(harness)
        let (store, _) = try harness.otherProcess()
        try await store.database.write { db in try db.run("UPDATE events SET name = 'renamed'") }
        let after = try await harness.list()
        #expect(after != before)
        #expect(String(decoding: after, as: UTF8.self).contains(#""name":"renamed""#))
        try await store.database.close()
    }

    @Test("retention's purge is seen")
    func purgeInvalidates() async throws {
        let harness = try ServerHarness(maxEvents: 3)
        for index in 0..<3 { _ = try await harness.add(index) }
        let before = try ids(try await keptFirstPage(harness))
        // Older than everything kept: the purge deletes it again in the same write, and the oldest stays.
        _ = try await harness.add(-1)
        #expect(try ids(try await harness.list()) == before)
        let newest = try await harness.add(10)
        #expect(try ids(try await harness.list()) == [newest.id] + before.prefix(2))
    }

    @Test("an account's deletion takes its events out of kept pages")
    func accountDeletionInvalidates() async throws {
        let harness = try ServerHarness(scope: .all)
        let user = try await harness.services.accounts.register(email: "ada@example.com", password: "secret!")
        _ = try await harness.add(userID: user.id)
        let anonymous = try await harness.add(1)
        _ = try await keptFirstPage(harness)
        #expect(try await harness.services.deleteAccount(password: "secret!") == 1)
        #expect(try ids(try await harness.list()) == [anonymous.id])
    }

    @Test("two users never share a page")
    func usersDoNotShare() async throws {
        let harness = try ServerHarness()
        let ada = try await harness.services.accounts.register(email: "ada@example.com", password: "secret!")
        let adas = try await harness.add(userID: ada.id)
        let shared = try await harness.add(1)
        #expect(try ids(try await keptFirstPage(harness)) == [shared.id, adas.id])
        _ = try await harness.services.accounts.logout()
        #expect(try ids(try await harness.list()) == [shared.id])
        _ = try await harness.services.accounts.register(email: "bob@example.com", password: "secret!")
        let bobs = try await harness.list()
        #expect(try ids(bobs) == [shared.id])
        #expect(bobs == (try await harness.uncached()))
    }

    @Test("the viewer read with the revision is the session's user, as the accounts service reads it")
    func sessionUserMatchesAccounts() async throws {
        let harness = try ServerHarness()
        let services = harness.services
        func sessionUser() async throws -> String? {
            let accounts = services.accounts
            return try await services.store.database.read { db in MovieServices.sessionUserID(accounts, db) }
        }
        #expect(try await sessionUser() == nil)
        let ada = try await services.accounts.register(email: "ada@example.com", password: "secret!")
        #expect(try await sessionUser() == ada.id)
        #expect(await services.currentUserID() == ada.id)
        _ = try await services.accounts.logout()
        #expect(try await sessionUser() == nil)
        #expect(await services.currentUserID() == nil)
    }
}

@Suite("events.list cache bounds")
struct EventsListCacheBoundsTests {
    static let key = EventsListCache.Key(viewer: .user("ada"), filter: EventFilter(), limit: 50, cursor: nil)
    static let json = EncodedJSON(object: { $0.member("events", [Int]()) })
    static let revision = EventRevision(sequence: 5, changes: 1)

    @Test func servesOnlyTheRevisionAndKeyItWasReadAt() {
        let cache = EventsListCache()
        cache.keep(Self.json, for: Self.key, revision: Self.revision)
        #expect(cache.answer(for: Self.key, revision: Self.revision) == Self.json)
        #expect(cache.answer(for: Self.key, revision: EventRevision(sequence: 6, changes: 1)) == nil)
        #expect(cache.answer(for: Self.key, revision: EventRevision(sequence: 5, changes: 2)) == nil)
        var bob = Self.key
        bob.viewer = .user("bob")
        var anonymous = Self.key
        anonymous.viewer = .user(nil)
        var everyone = Self.key
        everyone.viewer = .everyone
        var later = Self.key
        later.cursor = EventCursor(timestampMillis: 1, id: 1)
        var shorter = Self.key
        shorter.limit = 10
        for key in [bob, anonymous, everyone, later, shorter] {
            #expect(cache.answer(for: key, revision: Self.revision) == nil)
        }
    }

    @Test func keepsAFewPagesAndBoundedBytes() {
        let cache = EventsListCache()
        func key(_ index: Int) -> EventsListCache.Key {
            var key = Self.key
            key.limit = index + 1
            return key
        }
        for index in 0...EventsListCache.capacity { cache.keep(Self.json, for: key(index), revision: Self.revision) }
        let kept = (0...EventsListCache.capacity).filter { cache.answer(for: key($0), revision: Self.revision) != nil }
        #expect(kept.count == EventsListCache.capacity && kept.contains(EventsListCache.capacity))
        let large = EncodedJSON(object: { $0.member("x", String(repeating: "a", count: EventsListCache.maxBytes / 2)) })
        cache.keep(large, for: key(100), revision: Self.revision)
        cache.keep(large, for: key(101), revision: Self.revision)
        #expect(cache.answer(for: key(101), revision: Self.revision) == large)
        #expect(cache.answer(for: key(100), revision: Self.revision) == nil, "over the byte bound, the oldest goes")
        let tooLarge = EncodedJSON(object: { $0.member("x", String(repeating: "a", count: EventsListCache.maxBytes)) })
        cache.keep(tooLarge, for: key(102), revision: Self.revision)
        #expect(cache.answer(for: key(102), revision: Self.revision) == nil)
    }
}
