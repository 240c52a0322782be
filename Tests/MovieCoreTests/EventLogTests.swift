import Foundation
import SQLiteStore
import Synchronization
import Testing

@testable import MovieCore

/// A store in a fresh temporary directory and an event log on it; the directory is removed at the end.
private final class EventLogFixture {
    let directory: DataDirectory
    let store: MovieStore
    let log: EventLog

    init(
        _ configuration: EventLogConfiguration = EventLogConfiguration(flushInterval: .seconds(3600)),
        tuning: EventQueries.SearchTuning = EventQueries.SearchTuning()
    ) throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("EventLogTests-\(UUID().uuidString)").path
        directory = DataDirectory(path: path)
        store = try MovieStore(directory: directory)
        log = EventLog(database: store.database, configuration: configuration, searchTuning: tuning)
    }

    /// Another log on a newly opened store in the same directory, as after a restart.
    func reopened() throws -> EventLog {
        EventLog(database: try MovieStore(directory: directory).database)
    }

    /// A database beside this fixture's, migrated by the event log's first `steps` migrations only: the store
    /// as an older version left it (opening a `MovieStore` on its directory then upgrades it). Removed with
    /// the fixture.
    func olderDatabase(eventSteps steps: Int) throws -> (DataDirectory, Database) {
        let path = directory.path + "-v\(steps)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        olderPaths.append(path)
        let older = DataDirectory(path: path)
        var migrator = DatabaseMigrator()
        for (identifier, migrate) in EventLog.migrations.prefix(steps) { migrator.registerMigration(identifier, migrate) }
        return (older, try Database(path: older.file(MovieStore.fileName), migrator: migrator))
    }

    private var olderPaths: [String] = []

    deinit {
        try? FileManager.default.removeItem(atPath: directory.path)
        for path in olderPaths { try? FileManager.default.removeItem(atPath: path) }
    }
}

private let base: Int64 = 1_780_000_000_000  // 2026-05-28

/// Every event of the log, newest first, paging with `limit`.
private func allEvents(_ log: EventLog, limit: Int = 500, filter: EventFilter = EventFilter()) async throws
    -> [StoredEvent]
{
    var events: [StoredEvent] = []
    var cursor: EventCursor?
    repeat {
        let page = try await log.list(filter, limit: limit, after: cursor)
        events += page.events
        cursor = page.nextCursor
    } while cursor != nil
    return events
}

private func allMatches(_ log: EventLog, _ query: String, limit: Int = 100) async throws -> [StoredEvent] {
    var events: [StoredEvent] = []
    var cursor: EventCursor?
    repeat {
        let page = try await log.search(query, limit: limit, after: cursor)
        events += page.events
        cursor = page.nextCursor
    } while cursor != nil
    return events
}

private func isNewestFirst(_ events: [StoredEvent]) -> Bool {
    zip(events, events.dropFirst()).allSatisfy { ($0.timestampMillis, $0.id) > ($1.timestampMillis, $1.id) }
}

private func problems(of error: any Error) -> [FieldProblem] {
    guard case MovieError.validationFailed(let problems) = error else { return [] }
    return problems
}

/// Holds the log's write queue until the returned closure is called: every write asked for meanwhile waits.
private func holdWrites(_ log: EventLog) -> @Sendable () -> Void {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    log.queueWrite {
        for await _ in stream {}
    }
    return { continuation.finish() }
}

/// The outcome of `body`, thrown errors included.
private func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

/// Yields until `condition` holds (it is reached by other tasks making progress, never by time passing).
private func waitUntil(_ condition: () -> Bool) async {
    while !condition() {
        await Task.yield()
    }
}

/// Makes COMMIT fail, after every statement succeeded, for a transaction that inserted an event named
/// `poison`, or any event while `test_poison_all` has a row: a deferred foreign key left dangling.
private func installCommitFailure(_ database: Database) async throws {
    try await database.write { db in
        try db.execute("""
            CREATE TABLE test_parent (id INTEGER PRIMARY KEY);
            CREATE TABLE test_dangling (
                parent INTEGER REFERENCES test_parent (id) DEFERRABLE INITIALLY DEFERRED
            );
            CREATE TABLE test_poison_all (x INTEGER);
            CREATE TRIGGER test_poison AFTER INSERT ON events
                WHEN new.name = 'poison' OR EXISTS (SELECT 1 FROM test_poison_all)
            BEGIN
                INSERT INTO test_dangling (parent) VALUES (-1);
            END;
            """)
    }
}

@Suite("Event log")
struct EventLogTests {
    // MARK: Recording

    @Test("recording is buffered and written in batches")
    func batchedRecording() async throws {
        let fixture = try EventLogFixture(
            EventLogConfiguration(batchSize: 10, flushInterval: .seconds(3600), maxPending: 100))
        let log = fixture.log
        for page in 1...9 {
            await log.record(.popularOpened(page: page), userID: nil)
        }
        #expect(log.pendingCount == 9)
        #expect(try await log.storedCount() == 0)

        await log.record(.popularOpened(page: 10), userID: nil)  // the 10th starts a batch write
        await log.waitForQueuedWrites()
        #expect(log.pendingCount == 0)
        #expect(try await log.storedCount() == 10)

        let events = try await allEvents(log)
        #expect(Set(events.compactMap { event -> Int? in
            guard case .int(let page) = event.params["page"] else { return nil }
            return page
        }) == Set(1...10))
        #expect(events.allSatisfy { $0.name == "popular.opened" && $0.userID == nil })
    }

    @Test("a recorded event is written after the flush interval without any read")
    func intervalFlush() async throws {
        let fixture = try EventLogFixture(EventLogConfiguration(flushInterval: .milliseconds(20)))
        await fixture.log.record(.genresOpened, userID: "u1")
        await fixture.log.record(.movieViewed(movieID: 550), userID: "u1")
        let timer = try #require(fixture.log.scheduledFlush)
        await timer.value
        #expect(fixture.log.pendingCount == 0)
        #expect(try await fixture.log.storedCount() == 2)
    }

    @Test("recording waits for a flush once maxPending events wait")
    func backpressure() async throws {
        let fixture = try EventLogFixture(
            EventLogConfiguration(batchSize: 1000, flushInterval: .seconds(3600), maxPending: 1000))
        for index in 0..<1000 {
            await fixture.log.record(name: "bulk", params: ["i": .int(index)], userID: nil, timestampMillis: base)
        }
        #expect(fixture.log.pendingCount == 0)
        #expect(try await fixture.log.storedCount() == 1000)
    }

    @Test("close flushes the buffer: nothing is lost, and later records are written through")
    func closeFlushes() async throws {
        let fixture = try EventLogFixture(EventLogConfiguration(batchSize: 5000, flushInterval: .seconds(3600)))
        for index in 0..<700 {
            await fixture.log.record(
                name: "movie.viewed", params: ["movieId": .int(index)], userID: nil,
                timestampMillis: base + Int64(index))
        }
        #expect(try await fixture.log.storedCount() == 0)
        await fixture.log.close()
        #expect(try await fixture.log.storedCount() == 700)

        await fixture.log.record(.latestOpened, userID: nil)
        #expect(fixture.log.pendingCount == 0)
        await fixture.log.close()  // twice is harmless

        let restarted = try fixture.reopened()
        let events = try await allEvents(restarted)
        #expect(events.count == 701)
        #expect(Set(events.filter { $0.name == "movie.viewed" }.compactMap { $0.params["movieId"] })
            == Set((0..<700).map { EventValue.int($0) }))
    }

    @Test("reads flush first, so they see everything recorded")
    func readsFlush() async throws {
        let fixture = try EventLogFixture()
        await fixture.log.record(.genreOpened(genreID: 28), userID: "u1")
        let page = try await fixture.log.list(limit: 10)
        #expect(page.events.map(\.name) == ["genre.opened"])
        #expect(page.events.first?.params == ["genreId": .int(28)])
        #expect(page.events.first?.userID == "u1")
        #expect(page.nextCursor == nil)
        await fixture.log.record(.genresOpened, userID: nil)
        let found = try await fixture.log.search("genres", limit: 10)
        #expect(found.events.map(\.name) == ["genres.opened"])
    }

    // MARK: Paging

    @Test("keyset paging through thousands of events while others are recorded: no duplicate, no gap")
    func pagingWhileRecording() async throws {
        let fixture = try EventLogFixture(EventLogConfiguration(batchSize: 64, flushInterval: .milliseconds(5)))
        let log = fixture.log
        // Three events per millisecond, so that ties are broken by id.
        for index in 0..<3000 {
            await log.record(
                name: index % 2 == 0 ? "movie.viewed" : "popular.opened", params: ["n": .int(index)],
                userID: nil, timestampMillis: base + Int64(index / 3))
        }
        try await log.flush()
        let original = try await allEvents(log)
        #expect(original.count == 3000)

        let writer = Task {
            for index in 0..<600 {
                // Newer events, events inside the range already paged, and explicit adds.
                await log.record(
                    name: "late", params: ["n": .int(index)], userID: nil,
                    timestampMillis: index % 2 == 0 ? base + 5000 + Int64(index) : base + Int64(index))
                if index % 100 == 0 {
                    _ = try await log.add(name: "added", timestampMillis: base + 2000, params: [:], userID: nil)
                }
            }
        }
        var seen: [StoredEvent] = []
        var cursor: EventCursor?
        var pages = 0
        repeat {
            let page = try await log.list(limit: 37, after: cursor)
            #expect(page.events.count <= 37)
            seen += page.events
            cursor = page.nextCursor
            pages += 1
            if pages % 10 == 0 { await Task.yield() }
        } while cursor != nil
        try await writer.value

        #expect(Set(seen.map(\.id)).count == seen.count, "no event is returned twice")
        #expect(Set(original.map(\.id)).isSubset(of: Set(seen.map(\.id))), "every earlier event is returned")
        #expect(isNewestFirst(seen))
        #expect(pages >= 3000 / 37)
    }

    @Test("filters by name, user and time, paging inside the filter")
    func filters() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        for index in 0..<300 {
            let user: String? = index % 3 == 0 ? nil : (index % 3 == 1 ? "alice" : "bob")
            await log.record(
                name: index % 5 == 0 ? "genre.opened" : "movie.viewed", params: ["n": .int(index)], userID: user,
                timestampMillis: base + Int64(index) * 1000)
        }
        let genre = try await allEvents(log, limit: 7, filter: EventFilter(name: "genre.opened"))
        #expect(genre.count == 60 && genre.allSatisfy { $0.name == "genre.opened" } && isNewestFirst(genre))

        let anonymous = try await allEvents(log, limit: 11, filter: EventFilter(user: .anonymous))
        #expect(anonymous.count == 100 && anonymous.allSatisfy { $0.userID == nil })
        let alice = try await allEvents(log, limit: 11, filter: EventFilter(user: .id("alice")))
        #expect(alice.count == 100 && alice.allSatisfy { $0.userID == "alice" })

        let window = try await allEvents(
            log, limit: 9, filter: EventFilter(sinceMillis: base + 100_000, untilMillis: base + 200_000))
        #expect(window.count == 100)
        #expect(window.first?.timestampMillis == base + 199_000 && window.last?.timestampMillis == base + 100_000)

        let combined = try await allEvents(
            log, filter: EventFilter(name: "genre.opened", user: .id("bob"), sinceMillis: base + 150_000))
        #expect(combined.map { $0.params["n"] } == stride(from: 295, through: 150, by: -5)
            .filter { $0 % 3 == 2 }.map { EventValue.int($0) })
        #expect(try await log.list(EventFilter(name: "nothing"), limit: 10).events.isEmpty)
    }

    @Test("cursor tokens round-trip and junk is refused")
    func cursorTokens() {
        let cursor = EventCursor(timestampMillis: -12_345, id: 987_654_321)
        #expect(EventCursor(token: cursor.token) == cursor)
        #expect(!cursor.token.contains("=") && !cursor.token.contains("/") && !cursor.token.contains("+"))
        for junk in ["", "abc", "e1.1.2", cursor.token + "x", String(repeating: "A", count: 200), "ZTIuMS4y"] {
            #expect(EventCursor(token: junk) == nil, "\(junk)")
        }
        #expect(EventCursor(token: "ZTEuMS4y") == EventCursor(timestampMillis: 1, id: 2))  // "e1.1.2"
    }

    // MARK: Search

    @Test("search reaches records far past the first page, on the scan and on the index path")
    func searchReachesOldRecords() async throws {
        for tuning in [
            EventQueries.SearchTuning(),
            EventQueries.SearchTuning(scanBudget: 32, maxCandidates: 50),
        ] {
            let fixture = try EventLogFixture(tuning: tuning)
            let log = fixture.log
            await log.record(
                name: "movie.viewed", params: ["title": .string("The Needle-Zq Affair")], userID: nil,
                timestampMillis: base)
            for index in 1..<5000 {
                await log.record(.popularOpened(page: index % 10 + 1), userID: nil)
            }
            for query in ["needle-zq", "NEEDLE", "zq", "Z", "e-z"] {
                let page = try await log.search(query, limit: 5)
                #expect(page.events.count == 1, "\(query)")
                #expect(page.events.first?.timestampMillis == base)
                #expect(page.nextCursor == nil)
            }
            let popular = try await allMatches(log, "Popular.Open", limit: 500)
            #expect(popular.count == 4999 && isNewestFirst(popular))
            #expect(try await log.search("nowhere", limit: 5).events.isEmpty)
        }
    }

    @Test("search agrees with a plain substring check, whichever path it takes")
    func searchMatchesDefinition() async throws {
        var expected: [(name: String, params: [String: EventValue])] = []
        let words = ["alpha", "beta", "gamma", "Delta", "ÉCLAIR", "x"]
        for index in 0..<1500 {
            let params: [String: EventValue] = [
                "word": .string(words[index % words.count] + String(index % 7)),
                "n": .int(index % 13),
                "tags": .array([.string(words[(index / 7) % words.count]), .bool(index % 2 == 0), .double(0.5)]),
            ]
            expected.append((index % 4 == 0 ? "genre.opened" : "movie.viewed", params))
        }
        let queries = ["alpha", "ALPHA3", "ta1", "éclair", "l", "12", "0.5", "true", "genre", "a2", "viewed",
                       "word", "gamma6", "x4"]
        for tuning in [
            EventQueries.SearchTuning(),
            EventQueries.SearchTuning(scanBudget: 16, maxCandidates: 100),
            EventQueries.SearchTuning(scanBudget: 16, maxCandidates: 100_000),
        ] {
            let fixture = try EventLogFixture(tuning: tuning)
            for (index, event) in expected.enumerated() {
                await fixture.log.record(
                    name: event.name, params: event.params, userID: nil, timestampMillis: base + Int64(index))
            }
            for query in queries {
                let needle = query.lowercased()
                let want = expected.enumerated().filter { _, event in
                    EventSearchText.make(name: event.name, params: event.params)
                        .components(separatedBy: EventSearchText.separator).contains { $0.contains(needle) }
                }.map { base + Int64($0.offset) }
                let got = try await allMatches(fixture.log, query, limit: 97)
                #expect(got.map(\.timestampMillis) == want.reversed(), "\(query)")
            }
        }
    }

    @Test("%, _, quotes and backslashes are searched literally, and JSON punctuation is not searched")
    func literalCharacters() async throws {
        for tuning in [EventQueries.SearchTuning(), EventQueries.SearchTuning(scanBudget: 1, maxCandidates: 10)] {
            let fixture = try EventLogFixture(tuning: tuning)
            let values = ["100%", "100x", "a_b", "aXb", "it's", "its", "say \"hi\"", "say hi", "back\\slash",
                          "backslash", "50%_off"]
            for (index, value) in values.enumerated() {
                _ = try await fixture.log.add(
                    name: "note", timestampMillis: base + Int64(index), params: ["text": .string(value)],
                    userID: nil)
            }
            _ = try await fixture.log.add(
                name: "100% done", timestampMillis: base + 100, params: ["key\"": .int(1)], userID: nil)
            let cases: [(String, [String])] = [
                ("%", ["100%", "50%_off", "name:100% done"]),
                ("0%", ["100%", "50%_off", "name:100% done"]),
                ("_", ["a_b", "50%_off"]),
                ("a_b", ["a_b"]),
                ("%_", ["50%_off"]),
                ("'", ["it's"]),
                ("t's", ["it's"]),
                ("\"", ["say \"hi\""]),
                ("\"hi\"", ["say \"hi\""]),
                ("\\", ["back\\slash"]),
                ("k\\s", ["back\\slash"]),
                ("{", []),
                ("text", []),
                (":", []),
            ]
            for (query, want) in cases {
                let got = try await allMatches(fixture.log, query).map { event -> String in
                    if case .string(let text) = event.params["text"] { return text }
                    return "name:" + event.name
                }
                #expect(Set(got) == Set(want), "query \(query)")
            }
        }
    }

    @Test("the trigram expression quotes every trigram")
    func trigramExpression() {
        #expect(EventSearchText.trigramExpression("ab") == nil)
        #expect(EventSearchText.trigramExpression("a\"bc") == "\"a\"\"b\" AND \"\"\"bc\"")
        #expect(EventSearchText.trigramExpression("aaaa") == "\"aaa\"")
        let long = String(repeating: "abcdefghij", count: 20)
        #expect(EventSearchText.trigramExpression(long)?.components(separatedBy: " AND ").count == 10)
        #expect(!EventSearchText.isSearchable("a\u{1F}b") && !EventSearchText.isSearchable("\u{0}"))
        #expect(EventSearchText.isSearchable("tab\tand\nnewline"))
    }

    // MARK: Explicit changes

    @Test("added events are stored at once with their params, and round-trip")
    func addAndGet() async throws {
        let fixture = try EventLogFixture()
        let params: [String: EventValue] = [
            "int": .int(-42), "double": .double(2.5), "string": .string("Ünïcode / \"quoted\""),
            "bool": .bool(false),
            "array": .array([.int(1), .double(0.25), .string("two"), .bool(true)]), "empty": .array([]),
        ]
        let added = try await fixture.log.add(
            name: "tester.note", timestampMillis: base + 123, params: params, userID: "u7")
        #expect(try await fixture.log.storedCount() == 1)
        let fetched = try await fixture.log.event(id: added.id)
        #expect(fetched == added)
        #expect(fetched.params == params && fetched.userID == "u7" && fetched.timestampMillis == base + 123)
    }

    // MARK: Group commit

    @Test(
        "concurrent adds wait together and are committed in one transaction, after the recorded buffer",
        .timeLimit(.minutes(10)))
    func groupCommit() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        await log.record(.genresOpened, userID: nil)
        let release = holdWrites(log)
        let count = 100
        let added = try await withThrowingTaskGroup(of: StoredEvent.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await log.add(
                        name: "burst", timestampMillis: base + Int64(index % 10), params: ["i": .int(index)],
                        userID: index.isMultiple(of: 2) ? "u1" : nil)
                }
            }
            await waitUntil { log.waitingAddCount == count }
            #expect(try await log.storedCount() == 0, "nothing is stored while the queue is held")
            let writesBefore = log.committedWriteCount
            release()
            var added: [StoredEvent] = []
            for try await event in group {
                added.append(event)
            }
            #expect(log.committedWriteCount == writesBefore + 1, "one transaction for the whole group")
            #expect(try await log.storedCount() == count + 1, "with the event recorded before them, unflushed")
            return added
        }
        #expect(Set(added.map(\.id)).count == count)
        #expect(Set(added.compactMap { $0.params["i"] }) == Set((0..<count).map { EventValue.int($0) }))

        let stored = try await allEvents(log, limit: 7)
        #expect(isNewestFirst(stored))
        #expect(stored.count == count + 1)
        let recorded = try #require(stored.first { $0.name == "genres.opened" })
        #expect(added.allSatisfy { $0.id > recorded.id }, "recorded before the adds: inserted first")
        let storedByID = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0) })
        #expect(added.allSatisfy { storedByID[$0.id] == $0 }, "each answer is the stored event")
    }

    @Test("an add that cannot be stored fails alone; the rest of its group is stored", .timeLimit(.minutes(10)))
    func groupFailureIsolated() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        try await installCommitFailure(fixture.store.database)
        let release = holdWrites(log)
        let names = (0..<20).map { $0 == 7 ? "poison" : "fine.\($0)" }
        let outcomes = await withTaskGroup(of: (String, Result<StoredEvent, any Error>).self) { group in
            for (index, name) in names.enumerated() {
                group.addTask {
                    let result = await outcome {
                        try await log.add(name: name, timestampMillis: base + Int64(index), params: [:], userID: nil)
                    }
                    return (name, result)
                }
            }
            await waitUntil { log.waitingAddCount == names.count }
            release()
            var outcomes: [String: Result<StoredEvent, any Error>] = [:]
            for await (name, result) in group {
                outcomes[name] = result
            }
            return outcomes
        }
        guard case .failure(let error) = outcomes["poison"] else {
            Issue.record("the poisoned add was acknowledged")
            return
        }
        #expect(error as? MovieError == .storage(.other))
        let acknowledged = names.filter { $0 != "poison" }.compactMap { try? outcomes[$0]?.get() }
        #expect(acknowledged.count == names.count - 1)
        let stored = try await allEvents(log)
        #expect(Set(stored.map(\.name)) == Set(names.filter { $0 != "poison" }))
        let storedByID = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0) })
        #expect(acknowledged.allSatisfy { storedByID[$0.id] == $0 })
    }

    @Test("no add is acknowledged before its transaction has committed", .timeLimit(.minutes(10)))
    func noAcknowledgementBeforeCommit() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        try await installCommitFailure(fixture.store.database)
        // Every COMMIT now fails (after every insert succeeded), alone or in a group.
        try await fixture.store.database.write { db in try db.run("INSERT INTO test_poison_all (x) VALUES (1)") }
        let release = holdWrites(log)
        let count = 30
        let acknowledged = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                group.addTask {
                    let result = await outcome {
                        try await log.add(
                            name: "doomed", timestampMillis: base + Int64(index), params: [:], userID: nil)
                    }
                    if case .success = result { return true }
                    return false
                }
            }
            await waitUntil { log.waitingAddCount == count }
            release()
            var acknowledged = 0
            for await success in group where success {
                acknowledged += 1
            }
            return acknowledged
        }
        #expect(acknowledged == 0)
        #expect(try await log.storedCount() == 0)

        try await fixture.store.database.write { db in try db.run("DELETE FROM test_poison_all") }
        let later = try await log.add(name: "fine", timestampMillis: base, params: [:], userID: nil)
        #expect(try await log.event(id: later.id) == later)
    }

    @Test("delete reports unknown ids, and a deleted event is not found")
    func deleteThenGet() async throws {
        let fixture = try EventLogFixture()
        let first = try await fixture.log.add(name: "a", timestampMillis: base, params: [:], userID: nil)
        let second = try await fixture.log.add(name: "b", timestampMillis: base + 1, params: [:], userID: nil)
        await fixture.log.record(.latestOpened, userID: nil)
        let latest = try await fixture.log.list(EventFilter(name: "latest.opened"), limit: 1)
        let recorded = try #require(latest.events.first)

        let deletion = try await fixture.log.delete(ids: [first.id, 999_999, first.id, recorded.id, -1])
        #expect(deletion.deleted == [first.id, recorded.id])
        #expect(deletion.notFound == [999_999, -1])
        await #expect(throws: MovieError.notFound("event \(first.id)")) {
            try await fixture.log.event(id: first.id)
        }
        #expect(try await fixture.log.event(id: second.id).name == "b")
        #expect(try await fixture.log.search("a", limit: 10).events.map(\.id) == [])
        #expect(try await fixture.log.delete(ids: [first.id]) == EventDeletion(deleted: [], notFound: [first.id]))

        let third = try await fixture.log.add(name: "c", timestampMillis: base + 2, params: [:], userID: nil)
        #expect(third.id > recorded.id, "ids are never reused")
    }

    @Test("every invalid input is refused with the field named", arguments: [
        ("", [:], ["name"]),
        (String(repeating: "n", count: 201), [:], ["name"]),
        ("line\nbreak", [:], ["name"]),
        ("unit\u{1F}separator", [:], ["name"]),
        ("ok", Dictionary(uniqueKeysWithValues: (0...100).map { ("k\($0)", EventValue.int($0)) }), ["params"]),
        ("ok", ["long": .string(String(repeating: "s", count: 10_001))], ["params.long"]),
        ("ok", ["list": .array([.string("fine"), .string(String(repeating: "s", count: 10_001))])],
         ["params.list[1]"]),
        ("ok", ["nan": .double(.nan), "inf": .array([.double(.infinity)])], ["params.inf[0]", "params.nan"]),
        ("ok", ["": .int(1)], ["params"]),
        ("ok", [String(repeating: "k", count: 201): .int(1)], ["params"]),
        ("", ["bad": .double(.nan)], ["name", "params.bad"]),
    ] as [(String, [String: EventValue], [String])])
    func validation(name: String, params: [String: EventValue], fields: [String]) async throws {
        #expect(EventValidation.problems(name: name, params: params).map(\.field) == fields)
        let fixture = try EventLogFixture()
        let error = await #expect(throws: MovieError.self) {
            try await fixture.log.add(name: name, timestampMillis: base, params: params, userID: nil)
        }
        #expect(problems(of: try #require(error)).map(\.field) == fields)
        #expect(try await fixture.log.storedCount() == 0)
    }

    @Test("limits themselves are accepted")
    func validationLimits() {
        let params = Dictionary(uniqueKeysWithValues: (0..<100).map { ("k\($0)", EventValue.int($0)) })
            .merging(["k0": .string(String(repeating: "é", count: 10_000))]) { $1 }
        #expect(EventValidation.problems(name: String(repeating: "n", count: 200), params: params).isEmpty)
        #expect(EventValidation.problems(name: "ü", params: [String(repeating: "k", count: 200): .bool(true)])
            .isEmpty)
    }

    // MARK: Retention, stats, hints

    @Test("the oldest events beyond the cap are pruned")
    func retention() async throws {
        let fixture = try EventLogFixture(EventLogConfiguration(maxEvents: 50, batchSize: 7))
        for index in 0..<80 {
            await fixture.log.record(
                name: "tick", params: ["i": .int(index)], userID: nil, timestampMillis: base + Int64(index))
        }
        try await fixture.log.flush()
        var events = try await allEvents(fixture.log, limit: 13)
        #expect(events.map { $0.params["i"] } == (30..<80).reversed().map { EventValue.int($0) })
        #expect(try await fixture.log.stats().total == 50)

        // An explicit add older than everything kept is itself the oldest.
        _ = try await fixture.log.add(name: "old", timestampMillis: base - 1, params: [:], userID: nil)
        _ = try await fixture.log.add(name: "new", timestampMillis: base + 1000, params: [:], userID: nil)
        events = try await allEvents(fixture.log)
        #expect(events.count == 50)
        #expect(events.first?.name == "new" && !events.contains { $0.name == "old" })
        #expect(events.last?.params["i"] == .int(31))
        #expect(try await fixture.log.search("old", limit: 5).events.isEmpty, "pruned rows leave the index too")
    }

    @Test("stats count per name, overall and since a time")
    func stats() async throws {
        let fixture = try EventLogFixture()
        for index in 0..<30 {
            let name = index < 15 ? "movie.viewed" : (index < 25 ? "genre.opened" : "catalog.synced")
            await fixture.log.record(
                name: name, params: [:], userID: index % 2 == 0 ? nil : "u1", timestampMillis: base + Int64(index))
        }
        _ = try await fixture.log.add(name: "a.tie", timestampMillis: base + 100, params: [:], userID: nil)
        _ = try await fixture.log.add(name: "b.tie", timestampMillis: base + 100, params: [:], userID: nil)
        var stats = try await fixture.log.stats()
        #expect(stats.counts.map(\.name) == ["movie.viewed", "genre.opened", "catalog.synced", "a.tie", "b.tie"])
        #expect(stats.counts.map(\.count) == [15, 10, 5, 1, 1])
        #expect(stats.total == 32)

        stats = try await fixture.log.stats(sinceMillis: base + 20)
        #expect(stats.counts == [
            EventStats.Count(name: "catalog.synced", count: 5), EventStats.Count(name: "genre.opened", count: 5),
            EventStats.Count(name: "a.tie", count: 1), EventStats.Count(name: "b.tie", count: 1),
        ])
        #expect(stats.total == 12)

        let viewed = try await allEvents(fixture.log, filter: EventFilter(name: "movie.viewed"))
        _ = try await fixture.log.delete(ids: viewed.map(\.id))
        #expect(try await fixture.log.stats().counts.contains { $0.name == "movie.viewed" } == false)
    }

    @Test("hints list the features a user never used, per user")
    func hints() async throws {
        let fixture = try EventLogFixture()
        let everyHint = ["popular", "genres", "details", "favorites", "offline"]
        #expect(try await fixture.log.hints(userID: nil).map(\.id) == everyHint)
        await fixture.log.record(.popularOpened(page: 1), userID: nil)
        await fixture.log.record(.movieViewed(movieID: 550), userID: "u1")
        await fixture.log.record(.favoriteAdded(movieID: 550), userID: "u1")
        #expect(try await fixture.log.hints(userID: nil).map(\.id) == ["genres", "details", "favorites", "offline"])
        #expect(try await fixture.log.hints(userID: "u1").map(\.id) == ["popular", "genres", "offline"])
        #expect(try await fixture.log.hints(userID: "u2").count == 5)

        let popular = try await fixture.log.list(EventFilter(name: "popular.opened"), limit: 5).events.map(\.id)
        _ = try await fixture.log.delete(ids: popular)
        #expect(try await fixture.log.hints(userID: nil).first?.method == "movies.popular")
    }

    @Test("hint rules refer to registered event names")
    func hintRules() {
        for rule in HintRules.all {
            #expect(AppEvent.allNames.contains(rule.eventName), "\(rule.eventName)")
        }
        #expect(Set(HintRules.all.map(\.hint.id)).count == HintRules.all.count)
    }

    // MARK: Privacy (issue 13.3, 13.4)

    @Test("a user sees, searches, counts and deletes only their own and the anonymous events")
    func privacy() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        let mine = try await log.add(
            name: "note", timestampMillis: base, params: ["text": .string("ada's")], userID: "ada")
        let theirs = try await log.add(
            name: "note", timestampMillis: base + 1, params: ["text": .string("bob's secret")], userID: "bob")
        let anonymous = try await log.add(name: "note", timestampMillis: base + 2, params: [:], userID: nil)
        let ada = EventViewer.user("ada")

        #expect(try await log.list(viewer: ada, limit: 10).events.map(\.id) == [anonymous.id, mine.id])
        #expect(try await log.list(EventFilter(user: .id("bob")), viewer: ada, limit: 10).events.isEmpty)
        #expect(try await log.list(viewer: .user(nil), limit: 10).events.map(\.id) == [anonymous.id])
        #expect(try await log.list(viewer: .everyone, limit: 10).events.count == 3)
        #expect(try await log.search("secret", viewer: ada, limit: 10).events.isEmpty)
        #expect(try await log.search("note", viewer: ada, limit: 10).events.map(\.id) == [anonymous.id, mine.id])
        #expect(try await log.search("secret", viewer: .user("bob"), limit: 10).events.map(\.id) == [theirs.id])
        await #expect(throws: MovieError.notFound("event \(theirs.id)")) {
            try await log.event(id: theirs.id, viewer: ada)
        }
        #expect(try await log.stats(viewer: ada).total == 2)
        #expect(try await log.stats(sinceMillis: base, viewer: ada).total == 2)
        #expect(try await log.stats(sinceMillis: base, viewer: .user(nil)).total == 1)
        #expect(try await log.stats().total == 3)
        let deletion = try await log.delete(ids: [theirs.id, mine.id], viewer: ada)
        #expect(deletion == EventDeletion(deleted: [mine.id], notFound: [theirs.id]))
        #expect(try await log.event(id: theirs.id).params["text"] == .string("bob's secret"))
    }

    @Test("deleting a user's events takes the buffered ones too, and drops later ones")
    func deleteEventsOfUser() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        _ = try await log.add(name: "note", timestampMillis: base, params: [:], userID: "ada")
        _ = try await log.add(name: "note", timestampMillis: base, params: [:], userID: "bob")
        await log.record(.latestOpened, userID: "ada")  // still in the buffer
        #expect(try await log.deleteEvents(ofUser: "ada") == 2)
        await log.record(.genresOpened, userID: "ada")
        #expect(try await log.list(limit: 10).events.map(\.userID) == ["bob"])
        #expect(try await log.hints(userID: "ada").count == HintRules.all.count)
    }

    // MARK: Byte limits (issue 13.9)

    @Test("arrays and the params' total size are bounded, naming the field")
    func byteLimits() async throws {
        let long = [EventScalar](repeating: .int(1), count: 1001)
        #expect(EventValidation.problems(name: "ok", params: ["tags": .array(long)])
            == [FieldProblem(field: "params.tags", problem: "must have at most 1000 elements")])
        #expect(EventValidation.problems(name: "ok", params: ["tags": .array(Array(long.prefix(1000)))]).isEmpty)
        // From a client, decoding stops at the 1,001st element; a stored event is decoded whole.
        let json = Data(("{\"tags\": [" + (0...1000).map(String.init).joined(separator: ",") + "]}").utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: EventValue].self, from: json) }
        let storedDecoder = JSONDecoder()
        storedDecoder.userInfo[EventValue.storedKey] = true
        #expect(try storedDecoder.decode([String: EventValue].self, from: json)["tags"] == .array(long.indices.map {
            .int($0)
        }))
        let big = Dictionary(uniqueKeysWithValues: (0..<7).map {
            ("k\($0)", EventValue.string(String(repeating: "x", count: 10_000)))
        })
        #expect(EventValidation.problems(name: "ok", params: big)
            == [FieldProblem(field: "params", problem: "must be at most 65536 bytes as JSON")])
        // Escaping makes the JSON larger than the text: caught once encoded.
        let escaped = Dictionary(uniqueKeysWithValues: (0..<4).map {
            ("k\($0)", EventValue.string(String(repeating: "\u{1}", count: 5000)))
        })
        #expect(EventValidation.problems(name: "ok", params: escaped).isEmpty)
        let fixture = try EventLogFixture()
        let error = await #expect(throws: MovieError.self) {
            try await fixture.log.add(name: "ok", timestampMillis: base, params: escaped, userID: nil)
        }
        #expect(problems(of: try #require(error)).map(\.field) == ["params"])
        #expect(try await fixture.log.storedCount() == 0)
    }

    @Test("a page of large events is cut at the byte budget, and its cursor leads to the rest")
    func pageBudget() async throws {
        let fixture = try EventLogFixture(EventLogConfiguration(flushInterval: .seconds(3600), maxPageBytes: 100_000))
        let text = String(repeating: "y", count: 9_000)
        for index in 0..<40 {
            _ = try await fixture.log.add(
                name: "big", timestampMillis: base + Int64(index), params: ["a": .string(text), "b": .string(text)],
                userID: nil)
        }
        let first = try await fixture.log.list(limit: 500)
        #expect(first.events.count == 5)
        #expect(first.nextCursor != nil)
        let found = try await fixture.log.search("yyy", limit: 500)
        #expect(found.events.count == 5 && found.nextCursor != nil)
        #expect(try await allEvents(fixture.log).count == 40)
        #expect(try await allMatches(fixture.log, "yyy").count == 40)
    }

    // MARK: Time

    @Test("impossible timestamps are refused (issue 13.13)", arguments: [
        "0000-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-11-30T24:00:00Z", "2026-11-30T23:60:00Z", "2026-11-30T23:59:60Z", "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z", "2026-11-00T00:00:00Z", "2026-11-30T08:10:00", "2026-11-30T08:10:00.Z",
        "2026-11-30T08:10:00+24:00", "2026-11-30T08:10:00+02:60", "2026-11-30T08:10:00+0200",
        "2026-11-30 08:10:00Z", "+2026-11-30T08:10:00Z", "2026-11-30T08:10:00Z ", "２０２６-11-30T08:10:00Z",
        "2026-11-30T8:10:00Z", "-001-12-30T00:00:00Z",
    ])
    func impossibleTimestamps(_ text: String) {
        #expect(EventTime.parse(text) == nil)
    }

    @Test("timestamps keep their millisecond exactly")
    func timestamps() throws {
        for text in ["2026-11-30T08:10:00.123Z", "1969-12-31T23:59:59.999Z", "2000-02-29T00:00:00.001Z",
                     "9999-12-31T23:59:59.999Z"] {
            let millis = try #require(EventTime.parse(text))
            #expect(EventTime.string(millis: millis) == text)
        }
        #expect(EventTime.parse("2026-11-30T08:10:00.1239Z").map(EventTime.string) == "2026-11-30T08:10:00.123Z")
        #expect(EventTime.parse("2026-11-30T10:10:00+02:00").map(EventTime.string) == "2026-11-30T08:10:00.000Z")
        #expect(EventTime.parse("yesterday") == nil)
        #expect(EventTime.parse("2026-11-30T08:10:00.000Z") == 1_796_026_200_000)
        #expect(EventTime.parse("2024-02-29t08:10:00z").map(EventTime.string) == "2024-02-29T08:10:00.000Z")
        #expect(EventTime.parse("0001-01-01T00:00:00.5Z").map(EventTime.string) == "0001-01-01T00:00:00.500Z")
        #expect(EventTime.parse("2026-01-01T00:30:00-01:00").map(EventTime.string) == "2026-01-01T01:30:00.000Z")
    }
}

@Suite("Event log schema v3")
struct EventLogBatchedInsertMigrationTests {
    @Test("a database written with the per-row triggers keeps its counts and its index after migration v3")
    func upgradedDatabaseKeepsCountsAndIndex() async throws {
        let fixture = try EventLogFixture()
        // The store as the previous version left it: the events' first two steps, with their insert triggers.
        let (directory, old) = try fixture.olderDatabase(eventSteps: 2)
        try await old.write { db in
            for index in 0..<3 {
                try db.run(
                    "INSERT INTO events (name, ts, user_id, params, search) VALUES ('movie.viewed', ?, 'u1', '{}', ?)",
                    [.integer(base + Int64(index)), .text("movie.viewed oldneedle\(index)")])
            }
        }
        try await old.close()

        let log = EventLog(database: try MovieStore(directory: directory).database)
        await log.record(name: "movie.viewed", params: [:], userID: "u1", timestampMillis: base + 10)
        await log.record(name: "genres.opened", params: [:], userID: nil, timestampMillis: base + 11)
        let stats = try await log.stats()
        #expect(stats.total == 5)
        #expect(stats.counts == [EventStats.Count(name: "movie.viewed", count: 4),
                                 EventStats.Count(name: "genres.opened", count: 1)])
        #expect(try await log.search("oldneedle1", limit: 5).events.map(\.timestampMillis) == [base + 1])
        #expect(try await log.search("genres.op", limit: 5).events.map(\.timestampMillis) == [base + 11])
        await log.close()
    }

    @Test("one batch keeps the totals, every user's usage and the index, for any mix of users and names")
    func batchKeepsCounters() async throws {
        // Every write brings the index up to date, so that it can be counted here.
        let fixture = try EventLogFixture(EventLogConfiguration(flushInterval: .seconds(3600), maxUnindexedEvents: 1))
        let log = fixture.log
        let users: [String?] = [nil, "ada", "bob"]
        for index in 0..<600 {
            await log.record(
                name: index % 2 == 0 ? "movie.viewed" : "genres.opened", params: ["n": .int(index)],
                userID: users[index % 3], timestampMillis: base + Int64(index))
        }
        let stats = try await log.stats()
        #expect(stats.total == 600)
        #expect(stats.counts.sorted { $0.name < $1.name } == [
            EventStats.Count(name: "genres.opened", count: 300), EventStats.Count(name: "movie.viewed", count: 300)])
        let adas = try await log.stats(viewer: .user("ada"))
        #expect(adas.counts.map(\.count).reduce(0, +) == 200 + 200)  // ada's own and the anonymous ones
        // The index holds the values (migration v7): each event's `n`.
        let rows = try await fixture.store.database.read { db in
            try db.scalarInt("SELECT count(*) FROM events_fts WHERE events_fts MATCH '\"159\"'") ?? -1
        }
        #expect(rows == 1)
        try await expectIndexMatchesEvents(fixture.store.database)
    }
}

@Suite("Stored params")
struct StoredParamsTests {
    @Test("integer params are written as JSONEncoder writes them, keys sorted the same way")
    func plainParamsMatchTheEncoder() throws {
        let samples: [[String: EventValue]] = [
            [:], ["movieId": .int(550)], ["page": .int(2), "genreId": .int(-28)],
            ["a10": .int(1), "a9": .int(2), "B": .int(3), "a": .int(4), "_x": .int(5), "a.b": .int(6), "a-b": .int(7),
             "Z": .int(Int.min), "z": .int(Int.max), "10": .int(0), "9": .int(0)],
            ["title": .string("x"), "n": .int(1)], ["é": .int(1)], ["ratio": .double(0.5)],
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for params in samples {
            let expected = String(decoding: try encoder.encode(params), as: UTF8.self)
            #expect(StoredEvent.canonicalJSON(params) == expected, "\(params)")
        }
    }

    @Test("the search text is the name and each value's text in key order, joined by U+001F, lowercased")
    func searchTextWithParams() {
        let samples: [(String, [String: EventValue])] = [
            ("movie.viewed", ["movieId": .int(550)]), ("Movie.Viewed", ["movieId": .int(-7)]),
            ("x", ["b": .string("Straße É"), "a": .double(7.5), "c": .bool(true), "d": .bool(false)]),
            ("x", ["list": .array([.int(1), .string("Two"), .double(1e20), .bool(true)]), "a": .array([])]),
            ("ΣΑΣ", ["z": .string("İx")]), ("n", ["k": .string("")]),
        ]
        for (name, params) in samples {
            var expected = name
            for (_, value) in params.sorted(by: { $0.key < $1.key }) {
                let texts: [String] = switch value {
                case .int(let number): ["\(number)"]
                case .double(let number): ["\(number)"]
                case .string(let text): [text]
                case .bool(let flag): ["\(flag)"]
                case .array(let elements): elements.map { element in
                    switch element {
                    case .int(let number): "\(number)"
                    case .double(let number): "\(number)"
                    case .string(let text): text
                    case .bool(let flag): "\(flag)"
                    }
                }
                }
                for text in texts { expected += "\u{1F}" + text }
            }
            #expect(EventSearchText.make(name: name, params: params) == expected.lowercased(), "\(name) \(params)")
        }
    }

    @Test("the search text of an event without params is its name lowercased, whatever the name")
    func searchTextOfANameAlone() {
        for name in ["genres.list", "movies.details", "Genres.List", "ÉCLAIR", "éclair", "a b_c-9", "İx", "ΣΑΣ"] {
            #expect(EventSearchText.make(name: name, params: [:]) == name.lowercased(), "\(name)")
        }
    }
}

@Suite("Event log revision")
struct EventRevisionTests {
    @Test("every change to the events moves the revision, by this log or another connection; reads do not")
    func changesMoveTheRevision() async throws {
        let fixture = try EventLogFixture(EventLogConfiguration(maxEvents: 3, flushInterval: .seconds(3600)))
        let log = fixture.log
        var seen: [EventRevision] = [try await log.revision()]
        func moved(_ change: String) async throws {
            let now = try await log.revision()
            #expect(!seen.contains(now), "\(change) did not move the revision")
            seen.append(now)
        }
        let first = try await log.add(name: "a", timestampMillis: base, params: [:], userID: "u1")
        try await moved("an add")
        await log.record(name: "b", params: [:], userID: nil, timestampMillis: base + 1)
        try await log.flush()
        try await moved("a recorded batch")
        _ = try await log.list(limit: 10)
        _ = try await log.stats()
        #expect(try await log.revision() == seen.last, "reads keep the revision")
        _ = try await log.delete(ids: [first.id])
        try await moved("a delete")
        _ = try await log.add(name: "c", timestampMillis: base + 2, params: [:], userID: "u1")
        try await moved("an add")
        #expect(try await log.deleteEvents(ofUser: "u1") == 1)
        try await moved("a user's events deleted")
        let other = try fixture.reopened()
        let theirs = try await other.add(name: "d", timestampMillis: base + 3, params: [:], userID: nil)
        try await moved("another connection's add")
        _ = try await other.delete(ids: [theirs.id])
        try await moved("another connection's delete")
        try await fixture.store.database.write { db in try db.run("UPDATE events SET name = 'renamed'") }
        try await moved("an update")
        await other.close()
    }

    @Test("deleting the newest event and adding one never gives the revision before the delete")
    func newestIdIsNotReused() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        _ = try await log.add(name: "a", timestampMillis: base, params: [:], userID: nil)
        let newest = try await log.add(name: "b", timestampMillis: base + 1, params: [:], userID: nil)
        let before = try await log.revision()
        _ = try await log.delete(ids: [newest.id])
        let again = try await log.add(name: "b", timestampMillis: base + 1, params: [:], userID: nil)
        #expect(again.id > newest.id)
        #expect(try await log.revision() != before)
    }

    @Test("a database from before migration v4 gets the revision's counter and triggers")
    func upgradedDatabaseHasARevision() async throws {
        let fixture = try EventLogFixture()
        let (directory, old) = try fixture.olderDatabase(eventSteps: 3)
        // As version 3 wrote an event: the row and its index entry.
        let storedID = try await old.write { db in
            try db.run(
                "INSERT INTO events (name, ts, user_id, params, search) VALUES ('movie.viewed', ?, NULL, '{}', 'movie.viewed')",
                [.integer(base)])
            let id = db.lastInsertRowID
            try db.run("INSERT INTO events_fts (rowid, search) VALUES (?, 'movie.viewed')", [.integer(id)])
            return id
        }
        try await old.close()

        let log = EventLog(database: try MovieStore(directory: directory).database)
        let upgraded = try await log.revision()
        #expect(upgraded == EventRevision(sequence: storedID, changes: 0))
        _ = try await log.delete(ids: [storedID])
        #expect(try await log.revision() == EventRevision(sequence: storedID, changes: 1))
        await log.close()
    }

    @Test("cursor tokens are the unpadded base64url Foundation gave, and parse back")
    func cursorTokens() throws {
        func foundationToken(_ cursor: EventCursor) -> String {
            Data("e1.\(cursor.timestampMillis).\(cursor.id)".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        var generator = SystemRandomNumberGenerator()
        var cursors = [EventCursor(timestampMillis: 0, id: 0), EventCursor(timestampMillis: .min, id: .max),
                       EventCursor(timestampMillis: -1, id: 1)]
        for _ in 0..<500 {
            cursors.append(EventCursor(
                timestampMillis: Int64.random(in: -1 << 50...1 << 50, using: &generator),
                id: Int64.random(in: 0...Int64(Int32.max) * Int64(1 + cursors.count % 3), using: &generator)))
        }
        for cursor in cursors {
            #expect(cursor.token == foundationToken(cursor))
            #expect(EventCursor(token: cursor.token) == cursor)
        }
        for junk in ["", "e1", "ZTEuMS4x=", "ZTEuMS4", "ZTEuMS4xA", "ZT+uMS4x", "ZT/uMS4x", "ZTEuMS4xLjE", "ZTIuMS4x"] {
            #expect(EventCursor(token: junk) == nil, "\(junk)")
        }
    }
}

@Suite("Event timestamps")
struct EventTimestampTests {
    @Test("timestamps are written with exactly the bytes Timestamp.string gave, at every edge")
    func directFormattingMatchesTimestamp() {
        var generator = SystemRandomNumberGenerator()
        var samples: [Int64] = [0, -1, 1, 999, -999, -1000, 86_399_999, 86_400_000, -86_400_000, -86_400_001,
                                Timestamp.minimumMillis, Timestamp.minimumMillis - 1, Timestamp.maximumMillis,
                                Timestamp.maximumMillis + 1, 951_782_400_000, 1_780_000_000_123]
        for _ in 0..<20_000 {
            samples.append(Int64.random(in: Timestamp.minimumMillis - 100_000...Timestamp.maximumMillis + 100_000,
                                        using: &generator))
        }
        for millis in samples {
            #expect(EventTime.string(millis: millis) == Self.libcTimestamp(millis: millis), "\(millis)")
            #expect(Timestamp.string(EventTime.date(millis: millis)) == Self.libcTimestamp(millis: millis), "\(millis)")
        }
    }

    /// What `Timestamp.string` wrote before it formatted from the integer: the C library's breakdown.
    static func libcTimestamp(millis: Int64) -> String {
        var seconds = time_t(millis >= 0 ? millis / 1000 : (millis - 999) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec),
            Int(millis - Int64(seconds) * 1000))
    }
}

/// A log that takes the index path whenever a query can (no scan budget, room for every candidate) and
/// flushes only when asked.
private func indexPathLog(_ database: Database, maxUnindexedEvents: Int = 1_000_000) -> EventLog {
    EventLog(
        database: database,
        configuration: EventLogConfiguration(flushInterval: .seconds(3600), maxUnindexedEvents: maxUnindexedEvents),
        searchTuning: EventQueries.SearchTuning(scanBudget: 1, maxCandidates: 100_000))
}

/// The search index's watermark (migration v5) and the events above it.
private func watermark(_ database: Database) async throws -> Int64 {
    try await database.read { db in try db.scalarInt("SELECT through FROM event_search_indexed WHERE id = 1") }
        .map(Int64.init) ?? -1
}

private func newestID(_ database: Database) async throws -> Int64 {
    try await database.read { db in try db.scalarInt("SELECT coalesce(max(id), 0) FROM events") }.map(Int64.init) ?? -1
}

/// Indexes whatever is above the watermark, then has FTS5 compare the whole index with the `events` rows
/// (rank 1): a row indexed twice, missing, or removed from the index without having been in it fails here.
private func expectIndexMatchesEvents(_ database: Database) async throws {
    try await database.write { db in
        try EventQueries.indexSearchTail(atLeast: 1, db)
        try db.run("INSERT INTO events_fts (events_fts, rank) VALUES ('integrity-check', 1)")
    }
}

/// Event `index` of the search fixtures: varied names and values, so queries hit rows all over the log.
private func searchFixture(_ index: Int) -> (name: String, params: [String: EventValue]) {
    let words = ["alpha", "beta", "gamma", "Delta", "ÉCLAIR", "x"]
    return (index % 4 == 0 ? "genre.opened" : "movie.viewed", [
        "word": .string(words[index % words.count] + String(index % 7)),
        "n": .int(index % 13),
        "tags": .array([.string(words[(index / 7) % words.count]), .bool(index % 2 == 0)]),
    ])
}

private let fixtureQueries = ["alpha", "ALPHA3", "ta1", "éclair", "l", "12", "true", "genre", "a2", "viewed", "gamma6"]

/// What every query must find among `events` (timestamps, newest first), by the definition of a match.
private func expectedMatches(_ query: String, _ events: [(ts: Int64, name: String, params: [String: EventValue])])
    -> [Int64]
{
    let needle = query.lowercased()
    return events.filter { event in
        EventSearchText.make(name: event.name, params: event.params)
            .components(separatedBy: EventSearchText.separator).contains { $0.contains(needle) }
    }.map(\.ts).sorted(by: >)
}

@Suite("Event search index watermark")
struct EventSearchWatermarkTests {
    /// Tunings that take the index path for most queries, and the default one.
    static let tunings = [
        EventQueries.SearchTuning(scanBudget: 16, maxCandidates: 100_000),
        EventQueries.SearchTuning(),
    ]

    @Test("searches find the same events with the whole log above the watermark, part of it, or none",
          arguments: [1_000_000, 300, 1])
    func unindexedTail(maxUnindexed: Int) async throws {
        for tuning in Self.tunings {
            let fixture = try EventLogFixture(
                EventLogConfiguration(batchSize: 64, flushInterval: .seconds(3600), maxUnindexedEvents: maxUnindexed),
                tuning: tuning)
            var stored: [(ts: Int64, name: String, params: [String: EventValue])] = []
            for index in 0..<1200 {
                let event = searchFixture(index)
                await fixture.log.record(
                    name: event.name, params: event.params, userID: nil, timestampMillis: base + Int64(index))
                stored.append((base + Int64(index), event.name, event.params))
            }
            try await fixture.log.flush()
            let through = try await watermark(fixture.store.database)
            let newest = try await newestID(fixture.store.database)
            switch maxUnindexed {
            case 1: #expect(through == newest, "every write indexes")
            case 300: #expect(through > 0 && newest - through < 300 + 64, "indexed in bulk, a tail left")
            default: #expect(through == 0, "nothing indexed")
            }
            for query in fixtureQueries {
                let got = try await allMatches(fixture.log, query, limit: 97)
                #expect(got.map(\.timestampMillis) == expectedMatches(query, stored), "\(query) at \(maxUnindexed)")
            }
            try await expectIndexMatchesEvents(fixture.store.database)
        }
    }

    @Test("deleting events below and above the watermark keeps the index whole and the searches exact")
    func deletesOnBothSides() async throws {
        for tuning in Self.tunings {
            let fixture = try EventLogFixture(
                EventLogConfiguration(
                    maxEvents: 1100, batchSize: 64, flushInterval: .seconds(3600), maxUnindexedEvents: 400),
                tuning: tuning)
            var stored: [(ts: Int64, name: String, params: [String: EventValue])] = []
            for index in 0..<1200 {
                let event = searchFixture(index)
                await fixture.log.record(
                    name: event.name, params: event.params, userID: nil, timestampMillis: base + Int64(index))
                stored.append((base + Int64(index), event.name, event.params))
            }
            try await fixture.log.flush()
            let database = fixture.store.database
            // Batches end where scheduling puts them, and the last one may have indexed everything: events
            // written one by one then leave a tail of at least seven, so that one seventh id lies above it.
            var index = 1200
            while try await newestID(database) - watermark(database) < 7 {
                let event = searchFixture(index)
                await fixture.log.record(
                    name: event.name, params: event.params, userID: nil, timestampMillis: base + Int64(index))
                stored.append((base + Int64(index), event.name, event.params))
                try await fixture.log.flush()
                index += 1
            }
            stored.removeFirst(stored.count - 1100)  // pruned beyond maxEvents
            let through = try await watermark(database)
            let newest = try await newestID(database)
            #expect(through > 0 && through < newest)
            // Every seventh event, on both sides of the watermark, by id; and one user's events.
            let all = try await allEvents(fixture.log)
            let doomed = all.filter { $0.id % 7 == 0 }
            #expect(doomed.contains { $0.id <= through } && doomed.contains { $0.id > through })
            #expect(try await fixture.log.delete(ids: doomed.map(\.id)).deleted.count == doomed.count)
            let gone = Set(doomed.map(\.timestampMillis))
            stored.removeAll { gone.contains($0.ts) }
            for query in fixtureQueries {
                let got = try await allMatches(fixture.log, query, limit: 97)
                #expect(got.map(\.timestampMillis) == expectedMatches(query, stored), "\(query)")
            }
            try await expectIndexMatchesEvents(database)
            for query in fixtureQueries {
                let got = try await allMatches(fixture.log, query, limit: 97)
                #expect(got.map(\.timestampMillis) == expectedMatches(query, stored), "\(query), all indexed")
            }
        }
    }

    @Test("two connections share one watermark: each indexes the other's tail, and both search it exactly")
    func twoConnections() async throws {
        let configuration = EventLogConfiguration(batchSize: 32, flushInterval: .seconds(3600), maxUnindexedEvents: 150)
        let tuning = EventQueries.SearchTuning(scanBudget: 16, maxCandidates: 100_000)
        let fixture = try EventLogFixture(configuration, tuning: tuning)
        let otherStore = try MovieStore(directory: fixture.directory)
        let other = EventLog(database: otherStore.database, configuration: configuration, searchTuning: tuning)
        var stored: [(ts: Int64, name: String, params: [String: EventValue])] = []
        // Written in turns of 50, indexed by whichever log's write reaches 150 above the watermark; 130 left.
        for index in 0..<880 {
            let event = searchFixture(index)
            let log = (index / 50).isMultiple(of: 2) ? fixture.log : other
            await log.record(name: event.name, params: event.params, userID: nil, timestampMillis: base + Int64(index))
            stored.append((base + Int64(index), event.name, event.params))
            if index % 50 == 49 { try await log.flush() }
        }
        try await other.flush()
        let through = try await watermark(fixture.store.database)
        let newest = try await newestID(fixture.store.database)
        #expect(through > 0 && through < newest)
        for query in fixtureQueries {
            let mine = try await allMatches(fixture.log, query, limit: 97)
            let theirs = try await allMatches(other, query, limit: 97)
            #expect(mine.map(\.timestampMillis) == expectedMatches(query, stored), "\(query)")
            #expect(theirs == mine, "\(query)")
        }
        try await expectIndexMatchesEvents(otherStore.database)
        await other.close()
    }

    @Test("the watermark survives a restart; the next process indexes the tail it finds")
    func survivesRestart() async throws {
        let fixture = try EventLogFixture(
            EventLogConfiguration(flushInterval: .seconds(3600), maxUnindexedEvents: 1_000_000))
        for index in 0..<200 {
            await fixture.log.record(name: "movie.viewed", params: ["n": .int(index)], userID: nil,
                                     timestampMillis: base + Int64(index))
        }
        await fixture.log.close()
        #expect(try await watermark(fixture.store.database) == 0)

        let reopened = try MovieStore(directory: fixture.directory)
        #expect(try await watermark(reopened.database) == 0, "nothing indexed, and nothing claimed")
        let log = indexPathLog(reopened.database, maxUnindexedEvents: 100)
        await log.record(name: "movie.viewed", params: ["n": .int(1234)], userID: nil, timestampMillis: base + 500)
        try await log.flush()
        let (indexedThrough, newest) = (try await watermark(reopened.database), try await newestID(reopened.database))
        #expect(indexedThrough == newest)
        #expect(try await log.search("123", limit: 10).events.map(\.timestampMillis) == [base + 500, base + 123])
        await log.close()
        try await expectIndexMatchesEvents(reopened.database)
    }

    @Test("after recording goes quiet for a flush interval, the tail is indexed")
    func quietIndexing() async throws {
        let fixture = try EventLogFixture(EventLogConfiguration(flushInterval: .milliseconds(20)))
        for index in 0..<10 {
            await fixture.log.record(name: "movie.viewed", params: ["n": .int(index)], userID: nil,
                                     timestampMillis: base + Int64(index))
        }
        try await fixture.log.flush()
        let database = fixture.store.database
        // The wait, or (on a slow machine) the indexing it queued, which it clears itself from.
        await fixture.log.scheduledIndexing?.value
        await fixture.log.waitForQueuedWrites()
        let (indexedThrough, newest) = (try await watermark(database), try await newestID(database))
        #expect(indexedThrough == newest)
        #expect(fixture.log.scheduledIndexing == nil)
        #expect(try await fixture.log.search("viewed", limit: 20).events.count == 10)
    }
}

@Suite("Event log schema v5")
struct EventLogDeferredIndexMigrationTests {
    @Test("a database from before migration v5 starts with every event indexed, and deletes keep the index whole")
    func upgradedDatabaseIsIndexed() async throws {
        let fixture = try EventLogFixture()
        let (directory, old) = try fixture.olderDatabase(eventSteps: 4)
        // As version 4 wrote a batch: the rows, then the index for their range.
        try await old.write { db in
            for index in 0..<5 {
                try db.run(
                    "INSERT INTO events (name, ts, user_id, params, search) VALUES ('movie.viewed', ?, NULL, '{}', ?)",
                    [.integer(base + Int64(index)), .text("movie.viewed\u{1F}oldneedle\(index)")])
            }
            try db.run("INSERT INTO events_fts (rowid, search) SELECT id, search FROM events")
        }
        try await old.close()

        let store = try MovieStore(directory: directory)
        let log = indexPathLog(store.database)
        #expect(try await watermark(store.database) == 5)
        await log.record(name: "movie.viewed", params: ["note": .string("oldneedle9")], userID: nil,
                         timestampMillis: base + 10)
        let found = try await log.search("oldneedle", limit: 10).events
        #expect(found.map(\.timestampMillis) == [base + 10, base + 4, base + 3, base + 2, base + 1, base])
        // One indexed event and the unindexed one.
        _ = try await log.delete(ids: [found[0].id, found[2].id])
        #expect(try await log.search("oldneedle", limit: 10).events.map(\.timestampMillis)
            == [base + 4, base + 2, base + 1, base])
        await log.close()
        try await expectIndexMatchesEvents(store.database)
    }
}

@Suite("Event log schema v6")
struct EventLogAscendingIndexTests {
    /// The plans of the statements `EventQueries` builds (newest-first pages, with a keyset cursor, by name,
    /// by time range, by user, and retention's oldest-first delete): each walks an index, none sorts.
    @Test("newest-first pages and retention walk the ascending indexes, with no sort")
    func plansUseTheIndexes() async throws {
        let fixture = try EventLogFixture()
        let keyset = "ts <= 5 AND (ts < 5 OR id < 9)"
        let statements = [
            ("SELECT id FROM events ORDER BY ts DESC, id DESC LIMIT 51", "events_by_time"),
            ("SELECT id FROM events WHERE (user_id IS NULL OR user_id = 'u') AND \(keyset) ORDER BY ts DESC, id DESC LIMIT 51",
             "events_by_time"),
            ("SELECT id FROM events WHERE name = 'n' AND \(keyset) ORDER BY ts DESC, id DESC LIMIT 51", "events_by_name"),
            ("SELECT id FROM events WHERE ts >= 2 AND ts < 30 ORDER BY ts DESC, id DESC LIMIT 51", "events_by_time"),
            ("SELECT id FROM events WHERE user_id = 'u' ORDER BY ts DESC, id DESC LIMIT 51", "events_by_time"),
            ("DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY ts ASC, id ASC LIMIT 5)", "events_by_time"),
        ]
        for (sql, index) in statements {
            let plan = try await fixture.store.database.read { db in
                try db.query("EXPLAIN QUERY PLAN " + sql).map { try $0.string("detail") }
            }.joined(separator: " | ")
            #expect(plan.contains(index), "\(sql): \(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(sql): \(plan)")
        }
        let definitions = try await fixture.store.database.read { db in
            try db.query("SELECT sql FROM sqlite_master WHERE name IN ('events_by_time', 'events_by_name') ORDER BY name")
                .map { try $0.string("sql") }
        }
        #expect(definitions == [
            "CREATE INDEX events_by_name ON events (name, ts, id)", "CREATE INDEX events_by_time ON events (ts, id)",
        ])
    }

    @Test("a database from before migration v6 keeps its events and pages, on ascending indexes")
    func upgradedDatabaseKeepsItsPages() async throws {
        let fixture = try EventLogFixture()
        let (directory, old) = try fixture.olderDatabase(eventSteps: 5)
        // Rows as version 5 wrote them (this version's log writes columns that schema lacks), and their pages
        // as that version's descending indexes ordered them.
        let pageOrder = "ORDER BY ts DESC, id DESC"
        let (before, beforeByName) = try await old.write { db -> ([Int64], [Int64]) in
            for index in 0..<120 {
                let name = index % 3 == 0 ? "genre.opened" : "movie.viewed"
                let params: [String: EventValue] = ["i": .int(index)]
                try db.run(
                    "INSERT INTO events (name, ts, user_id, params, search) VALUES (?, ?, NULL, ?, ?)",
                    [.text(name), .integer(base + Int64(index / 4)), .text(StoredEvent.canonicalJSON(params) ?? "{}"),
                     .text(EventSearchText.make(name: name, params: params))])
            }
            return (try db.query("SELECT id FROM events \(pageOrder)").map { try $0.int64(0) },
                    try db.query("SELECT id FROM events WHERE name = 'genre.opened' \(pageOrder)").map { try $0.int64(0) })
        }
        try await old.close()

        let log = try EventLog(database: MovieStore(directory: directory).database)
        let after = try await allEvents(log, limit: 7)
        #expect(after.map(\.id) == before)
        #expect(after.allSatisfy { $0.repeats == 1 && $0.lastTimestampMillis == $0.timestampMillis })
        #expect(try await allEvents(log, limit: 5, filter: EventFilter(name: "genre.opened")).map(\.id) == beforeByName)
        #expect(before.count == 120)
        await log.close()
    }
}

@Suite("Event log schema v7")
struct EventLogSearchValuesMigrationTests {
    @Test("a database from before migration v7 keeps every search exact, its index holding the values alone")
    func upgradedDatabaseSearchesAlike() async throws {
        let fixture = try EventLogFixture()
        let (directory, old) = try fixture.olderDatabase(eventSteps: 6)
        // As version 6 wrote and indexed events (names and values), with a tail above the watermark.
        var stored: [(ts: Int64, name: String, params: [String: EventValue])] = []
        for index in 0..<120 {
            let event = index % 5 == 0 ? (name: "Genres.List", params: [:]) : searchFixture(index)
            stored.append((base + Int64(index), event.name, event.params))
        }
        let rows = stored
        let oldThrough: Int64 = 90
        try await old.write { db in
            for row in rows {
                try db.run(
                    "INSERT INTO events (name, ts, user_id, params, search) VALUES (?, ?, NULL, ?, ?)",
                    [.text(row.name), .integer(row.ts), .text(StoredEvent.canonicalJSON(row.params) ?? "{}"),
                     .text(EventSearchText.make(name: row.name, params: row.params))])
            }
            try db.run("INSERT INTO events_fts (rowid, search) SELECT id, search FROM events WHERE id <= ?",
                       [.integer(oldThrough)])
            try db.run("UPDATE event_search_indexed SET through = ? WHERE id = 1", [.integer(oldThrough)])
        }
        try await old.close()

        let store = try MovieStore(directory: directory)
        let log = indexPathLog(store.database)
        #expect(try await watermark(store.database) == oldThrough)
        let queries = fixtureQueries + ["genres", "S.LI", "list", "movie.v"]
        for query in queries {
            let got = try await allMatches(log, query, limit: 13)
            #expect(got.map(\.timestampMillis) == expectedMatches(query, stored), "\(query)")
        }
        // Events without values are not in the index; the name is not either.
        let indexed = try await store.database.read { db in
            try db.scalarInt("SELECT count(*) FROM events_fts WHERE events_fts MATCH '\"gen\"'") ?? -1
        }
        #expect(indexed == 0)
        // Deleting indexed events with and without values, and one of the tail, keeps the index whole.
        let all = try await allEvents(log)
        let doomed = all.filter { $0.id == 5 || $0.id == 6 || $0.id == oldThrough + 1 }.map(\.id)
        #expect(try await log.delete(ids: doomed).deleted.count == 3)
        let gone = Set(all.filter { doomed.contains($0.id) }.map(\.timestampMillis))
        stored.removeAll { gone.contains($0.ts) }
        try await expectIndexMatchesEvents(store.database)
        for query in queries {
            let got = try await allMatches(log, query, limit: 13)
            #expect(got.map(\.timestampMillis) == expectedMatches(query, stored), "\(query)")
        }
        await log.close()
    }
}

@Suite("Event runs")
struct EventRunsTests {
    private static func viewed(_ log: EventLog, _ movie: Int, user: String? = nil, at offset: Int64) async {
        await log.record(name: "movie.viewed", params: ["movieId": .int(movie)], userID: user,
                         timestampMillis: base + offset)
    }

    @Test("a run of identical recorded events is one row that counts them, with its first and last time")
    func aRunIsOneRow() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        for offset in 0..<5 { await Self.viewed(log, 550, at: Int64(offset) * 10) }
        #expect(log.pendingCount == 1)
        let events = try await allEvents(log)
        #expect(events.count == 1)
        let run = try #require(events.first)
        #expect(run.repeats == 5)
        #expect(run.timestampMillis == base)
        #expect(run.lastTimestampMillis == base + 40)
        #expect(run.params == ["movieId": .int(550)])
        #expect(try await log.storedCount() == 1)
        // Counted as what happened, not as rows.
        #expect(try await log.stats().counts == [EventStats.Count(name: "movie.viewed", count: 5)])
        #expect(try await log.stats(sinceMillis: base).total == 5)
        await log.close()
    }

    @Test("another name, params or user, an add, or the run's span ends a run")
    func whatEndsARun() async throws {
        let fixture = try EventLogFixture(EventLogConfiguration(flushInterval: .seconds(3600), runSpan: .seconds(60)))
        let log = fixture.log
        await Self.viewed(log, 550, at: 0)
        await Self.viewed(log, 550, at: 1)
        await Self.viewed(log, 551, at: 2)  // other params
        await Self.viewed(log, 550, at: 3)
        await Self.viewed(log, 550, user: "ada", at: 4)  // another user
        await log.record(name: "genres.opened", params: [:], userID: "ada", timestampMillis: base + 5)
        await log.record(name: "genres.opened", params: [:], userID: "ada", timestampMillis: base + 6)
        _ = try await log.add(name: "tester.mark", timestampMillis: base + 7, params: [:], userID: "ada")
        await log.record(name: "genres.opened", params: [:], userID: "ada", timestampMillis: base + 8)
        await Self.viewed(log, 9, at: 10)
        await Self.viewed(log, 9, at: 59_999 + 10)  // still inside the run's 60 s
        await Self.viewed(log, 9, at: 60_000 + 10)  // the span is over: a new row
        let oldestFirst = try await allEvents(log).reversed().map { ($0.name, $0.repeats) }
        #expect(oldestFirst.map(\.0) == ["movie.viewed", "movie.viewed", "movie.viewed", "movie.viewed",
                                         "genres.opened", "tester.mark", "genres.opened", "movie.viewed",
                                         "movie.viewed"])
        #expect(oldestFirst.map(\.1) == [2, 1, 1, 1, 2, 1, 1, 2, 1])
        #expect(try await log.stats().total == 12)
        await log.close()
    }

    @Test("a run goes on from its stored row across writes and restarts its row when that row was deleted")
    func runsAcrossWrites() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        await Self.viewed(log, 550, at: 0)
        await Self.viewed(log, 550, at: 1)
        try await log.flush()
        await Self.viewed(log, 550, at: 2)
        await Self.viewed(log, 550, at: 3)
        let first = try await allEvents(log)
        #expect(first.map(\.repeats) == [4])
        #expect(first.first?.lastTimestampMillis == base + 3)
        let id = try #require(first.first?.id)

        // A deleted row is not brought back: the run's next event starts a row of its own.
        #expect(try await log.delete(ids: [id]).deleted == [id])
        #expect(try await log.stats().total == 0)
        await Self.viewed(log, 550, at: 4)
        let second = try await allEvents(log)
        #expect(second.count == 1)
        #expect(second.first?.id != id)
        #expect(second.first?.repeats == 1)
        #expect(second.first?.timestampMillis == base + 4)
        #expect(try await log.stats().total == 1)
        await log.close()
    }

    @Test("an event recorded while the write storing its run is under way goes on from that run's row",
          .timeLimit(.minutes(10)))
    func runsWhileTheirRowIsWritten() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        // The database's writer is held by a job that waits for the gate, so the flush below takes the
        // buffer and then waits behind it.
        let gate = DispatchSemaphore(value: 0)
        let holding = Atomic<Bool>(false)
        let holder = Task {
            try await fixture.store.database.write { _ in
                holding.store(true, ordering: .sequentiallyConsistent)
                gate.wait()
            }
        }
        await waitUntil { holding.load(ordering: .sequentiallyConsistent) }
        await Self.viewed(log, 550, at: 0)
        await Self.viewed(log, 550, at: 1)
        let flush = Task { try await log.flush() }
        await waitUntil { log.pendingCount == 0 }  // taken by the flush, which waits for the writer
        await Self.viewed(log, 550, at: 2)  // the run's row is being written
        await Self.viewed(log, 550, at: 3)
        gate.signal()
        try await holder.value
        try await flush.value
        let events = try await allEvents(log)
        #expect(events.map(\.repeats) == [4])
        #expect(events.first?.lastTimestampMillis == base + 3)
        #expect(try await log.stats().total == 4)
        await log.close()
    }

    @Test("a run's growing count moves the revision, so a kept page is not served stale")
    func aGrowingRunMovesTheRevision() async throws {
        let fixture = try EventLogFixture()
        let log = fixture.log
        await Self.viewed(log, 550, at: 0)
        try await log.flush()
        let before = try await log.revision()
        await Self.viewed(log, 550, at: 1)
        try await log.flush()
        #expect(try await log.revision() != before)
        #expect(try await allEvents(log).map(\.repeats) == [2])
        await log.close()
    }

    @Test("with no run span every event is a row of its own")
    func noSpanNoRuns() async throws {
        let fixture = try EventLogFixture(EventLogConfiguration(flushInterval: .seconds(3600), runSpan: .zero))
        let log = fixture.log
        for offset in 0..<3 { await Self.viewed(log, 550, at: Int64(offset)) }
        #expect(try await allEvents(log).map(\.repeats) == [1, 1, 1])
        await log.close()
    }

    @Test("a database from before migration v8 keeps its rows as single events, and its counts")
    func upgradedDatabaseHasSingleEvents() async throws {
        let fixture = try EventLogFixture()
        let (directory, old) = try fixture.olderDatabase(eventSteps: 7)
        try await old.write { db in
            for index in 0..<3 {
                try db.run(
                    "INSERT INTO events (name, ts, user_id, params, search) VALUES ('movie.viewed', ?, 'u1', '{}', 'movie.viewed')",
                    [.integer(base + Int64(index))])
            }
            try db.run("UPDATE event_totals SET total = 3 WHERE id = 1")
            try db.run("INSERT INTO event_usage (user_key, name, count) VALUES ('u1', 'movie.viewed', 3)")
        }
        try await old.close()

        let log = EventLog(database: try MovieStore(directory: directory).database)
        let events = try await allEvents(log)
        #expect(events.map(\.repeats) == [1, 1, 1])
        #expect(events.allSatisfy { $0.lastTimestampMillis == $0.timestampMillis })
        await log.record(name: "movie.viewed", params: [:], userID: "u1", timestampMillis: base + 10)
        await log.record(name: "movie.viewed", params: [:], userID: "u1", timestampMillis: base + 11)
        #expect(try await log.stats().total == 5)
        // Deleting the run takes both of its occurrences off the counts.
        let run = try #require(try await allEvents(log).first)
        #expect(run.repeats == 2)
        _ = try await log.delete(ids: [run.id])
        #expect(try await log.stats().total == 3)
        await log.close()
    }
}
