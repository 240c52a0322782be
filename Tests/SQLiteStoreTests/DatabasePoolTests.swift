import Dispatch
import Foundation
import SQLiteStore
import Synchronization
import Testing

/// The writer and the readers: reads never wait for a write (ours waiting for another connection's lock,
/// or another connection's open transaction), reads run side by side, and a cancelled task interrupts its
/// query or its wait for the lock.
///
/// No test here measures time. Where a defect would make a test wait, a fallback (the other connection
/// gives up its lock, a barrier stops waiting) ends the wait after ``hangFallback``, and the test then fails
/// on the order of events instead of hanging.
@Suite struct DatabasePoolTests {
    /// How long a fallback waits before it ends a wait that only a defect would make. Not 30 s: the
    /// AddressSanitizer suite on a loaded machine (scripts/sanitizers.sh beside `yes > /dev/null` on each
    /// core) resumed a test's task over 30 s after what it awaited, so the fallback came first.
    static let hangFallback: TimeInterval = 300

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        return migrator
    }

    /// A configuration whose writes wait long for a lock, so a write waiting for one is still waiting when
    /// the test looks.
    static var patientWrites: DatabaseConfiguration {
        var configuration = DatabaseConfiguration()
        configuration.busyTimeoutMilliseconds = 120_000
        configuration.beginRetryLimit = 0
        return configuration
    }

    @Test func theWriterAndEachReaderKeepThePageCacheTheirConfigurationGives() async throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration()
        configuration.writerCacheKiB = 384
        configuration.readerCacheKiB = 128
        let database = try Database(path: directory.file("cache.sqlite"), configuration: configuration,
                                    migrator: Self.migrator)
        #expect(try await database.writeWithoutTransaction { try $0.scalarInt("PRAGMA cache_size") } == -384)
        #expect(try await database.read { try $0.scalarInt("PRAGMA cache_size") } == -128)
        try await database.close()
    }

    @Test func aReadsStatementsReadOneSnapshot() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("snapshot.sqlite")
        let database = try Database(path: path, migrator: Self.migrator)
        try await database.write { db in try db.run("INSERT INTO item(name) VALUES ('before')") }
        let (first, second) = try await database.read { db -> (Int?, Int?) in
            let first = try db.scalarInt("SELECT count(*) FROM item")
            // Another connection commits between the read's two statements: the second must not see it.
            let other = try SQLiteConnection(path: path)
            try other.run("INSERT INTO item(name) VALUES ('between')")
            return (first, try db.scalarInt("SELECT count(*) FROM item"))
        }
        #expect(first == 1)
        #expect(second == 1, "the read's second statement saw a write committed after its first")
        #expect(try await database.read { try $0.scalarInt("SELECT count(*) FROM item") } == 2)
        try await database.close()
    }

    @Test func aReadDoesNotWaitForAWriteThatWaitsForTheLock() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("lock.sqlite")
        let database = try Database(path: path, configuration: Self.patientWrites, migrator: Self.migrator)
        try await database.write { db in try db.run("INSERT INTO item(name) VALUES ('committed')") }
        let lock = try await OtherConnectionLock.take(path: path)

        let writeStarted = AsyncStream<Void>.makeStream()
        let order = Mutex<[String]>([])
        let write = Task {
            try await database.writeWithoutTransaction { db in
                writeStarted.continuation.yield()
                try db.execute("BEGIN IMMEDIATE")  // Waits for `lock`.
                try db.run("INSERT INTO item(name) VALUES ('ours')")
                try db.execute("COMMIT")
            }
            order.withLock { $0.append("write") }
        }
        for await _ in writeStarted.stream { break }
        let names = try await database.read { db in
            try db.query("SELECT name FROM item ORDER BY id").map { try $0.string(0) }
        }
        order.withLock { $0.append("read") }
        lock.release()
        try await write.value

        #expect(names == ["committed"], "the other connection's uncommitted row must not show")
        #expect(order.withLock { $0 } == ["read", "write"])
        #expect(lock.releasedByFallback == false, "the read waited until the lock's fallback released it")
        let count = try await database.read { db in try db.scalarInt("SELECT count(*) FROM item") }
        #expect(count == 2)
    }

    @Test func readsRunSideBySide() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("parallel.sqlite"), migrator: Self.migrator)
        try await database.write { db in try db.run("INSERT INTO item(name) VALUES ('a')") }
        let readers = 3
        let barrier = Barrier(parties: readers)
        let allMet = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<readers {
                group.addTask {
                    try await database.read { db in
                        _ = try db.scalarInt("SELECT count(*) FROM item")
                        return barrier.arriveAndWait()  // Blocks this reader's thread, not a cooperative one.
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(allMet, "the reads did not all run at the same time")
    }

    @Test func cancellingATaskInterruptsItsQuery() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("interrupt.sqlite"), migrator: Self.migrator)
        let started = AsyncStream<Void>.makeStream()
        let query = Task {
            try await database.read { db -> Int? in
                started.continuation.yield()
                // About a minute of work unless interrupted.
                return try db.scalarInt("""
                    WITH RECURSIVE counter(x) AS (VALUES(1) UNION ALL SELECT x + 1 FROM counter WHERE x < 1000000000)
                    SELECT count(*) FROM counter
                    """)
            }
        }
        for await _ in started.stream { break }
        query.cancel()
        await #expect(throws: CancellationError.self) { try await query.value }
        // The interruption ended with its access: the reader answers the next query.
        #expect(try await database.read { db in try db.scalarInt("SELECT 42") } == 42)
    }

    @Test func cancellingATaskStopsItsWaitForTheLock() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("busy.sqlite")
        let database = try Database(path: path, configuration: Self.patientWrites, migrator: Self.migrator)
        let lock = try await OtherConnectionLock.take(path: path)
        let started = AsyncStream<Void>.makeStream()
        let write = Task {
            try await database.writeWithoutTransaction { db in
                started.continuation.yield()
                try db.execute("BEGIN IMMEDIATE")
                try db.execute("COMMIT")
            }
        }
        for await _ in started.stream { break }
        write.cancel()
        await #expect(throws: CancellationError.self) { try await write.value }
        #expect(lock.releasedByFallback == false, "the write waited until the lock's fallback released it")
        lock.release()
        try await database.write { db in try db.run("INSERT INTO item(name) VALUES ('after')") }
        #expect(try await database.read { db in try db.scalarInt("SELECT count(*) FROM item") } == 1)
    }

    @Test func aWriteWithALockTimeoutGivesUpThenWritesWaitAgain() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("lock-timeout.sqlite")
        let database = try Database(path: path, configuration: Self.patientWrites, migrator: Self.migrator)
        let lock = try await OtherConnectionLock.take(path: path)
        do {
            try await database.write(lockTimeout: .milliseconds(50)) { db in
                try db.run("INSERT INTO item(name) VALUES ('given up')")
            }
            Issue.record("expected SQLITE_BUSY")
        } catch let error as SQLiteError {
            #expect(error.isBusy)
        }
        #expect(lock.releasedByFallback == false)
        // The patient timeout is back: this write waits for the lock, taken when the lock goes.
        let started = AsyncStream<Void>.makeStream()
        let write = Task {
            try await database.writeWithoutTransaction { db in
                started.continuation.yield()
                try db.execute("BEGIN IMMEDIATE")
                try db.run("INSERT INTO item(name) VALUES ('waited')")
                try db.execute("COMMIT")
            }
        }
        for await _ in started.stream { break }
        lock.release()
        try await write.value
        #expect(try await database.read { db in try db.query("SELECT name FROM item").map { try $0.string(0) } }
            == ["waited"])
    }

    @Test func aTaskCancelledBeforeItsTurnDoesNotRun() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("early.sqlite"), migrator: Self.migrator)
        let ran = Mutex(false)
        let write = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await database.write { db in
                ran.withLock { $0 = true }
                try db.run("INSERT INTO item(name) VALUES ('never')")
            }
        }
        await #expect(throws: CancellationError.self) { try await write.value }
        #expect(ran.withLock { $0 } == false)
    }

    @Test func readersAndTheWriterHaveSmallPageCachesByDefault() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("cache.sqlite"), migrator: Self.migrator)
        #expect(try await database.read { db in try db.scalarInt("PRAGMA cache_size") } == -256)
        #expect(try await database.writeWithoutTransaction { db in try db.scalarInt("PRAGMA cache_size") } == -512)
    }

    @Test func aDatabaseWithoutWALReadsOnTheWriter() async throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration()
        configuration.walEnabled = false
        let database = try Database(
            path: directory.file("rollback-journal.sqlite"), configuration: configuration, migrator: Self.migrator)
        try await database.write { db in try db.run("INSERT INTO item(name) VALUES ('a')") }
        #expect(try await database.read { db in try db.journalMode() } == "delete")
        #expect(try await database.read { db in try db.scalarInt("SELECT count(*) FROM item") } == 1)
    }

    @Test func closeRefusesLaterReadsOnEveryConnection() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("close.sqlite"), migrator: Self.migrator)
        _ = try await database.read { db in try db.scalarInt("SELECT count(*) FROM item") }
        try await database.close()
        await #expect(throws: SQLiteError.self) { try await database.read { db in try db.scalarInt("SELECT 1") } }
        await #expect(throws: SQLiteError.self) { try await database.write { db in try db.run("SELECT 1") } }
    }
}

/// Another connection's write lock (`BEGIN IMMEDIATE`) on its own thread, as another process would hold
/// it. Released by ``release()``, or by a fallback after ``DatabasePoolTests/hangFallback``, so a test that
/// waits wrongly fails.
final class OtherConnectionLock: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let fallback = Mutex(false)

    static func take(path: String) async throws -> OtherConnectionLock {
        let lock = OtherConnectionLock()
        try await withCheckedThrowingContinuation { (taken: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                do {
                    let connection = try SQLiteConnection(path: path)
                    try connection.execute("BEGIN IMMEDIATE")
                    try connection.run("INSERT INTO item(name) VALUES ('uncommitted')")
                    taken.resume()
                    if lock.done.wait(timeout: .now() + DatabasePoolTests.hangFallback) == .timedOut {
                        lock.fallback.withLock { $0 = true }
                    }
                    try? connection.execute("ROLLBACK")
                    try? connection.close()
                } catch {
                    taken.resume(throwing: error)
                }
                lock.finished.signal()
            }
        }
        return lock
    }

    /// Whether the fallback, not ``release()``, ended the lock (valid once released or timed out).
    var releasedByFallback: Bool {
        fallback.withLock { $0 }
    }

    /// Rolls back and closes the other connection; returns once it has.
    func release() {
        done.signal()
        finished.wait()
    }
}

/// Lets `parties` threads wait until all have arrived; gives up after ``DatabasePoolTests/hangFallback``.
final class Barrier: Sendable {
    private let parties: Int
    private let arrived = Mutex(0)
    private let released = DispatchSemaphore(value: 0)

    init(parties: Int) {
        self.parties = parties
    }

    /// Whether every party arrived before the deadline.
    func arriveAndWait() -> Bool {
        let count = arrived.withLock { count -> Int in
            count += 1
            return count
        }
        if count == parties {
            for _ in 1..<parties { released.signal() }
            return true
        }
        return released.wait(timeout: .now() + DatabasePoolTests.hangFallback) == .success
    }
}
