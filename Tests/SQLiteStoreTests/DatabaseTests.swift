import Foundation
import SQLiteStore
import Testing

@Suite struct DatabaseTests {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        }
        return migrator
    }

    @Test func opensWithWALAndMigrations() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("app.sqlite")
        let database = try Database(path: path, migrator: Self.migrator)
        #expect(database.path == path)
        let mode = try await database.read { db in try db.journalMode() }
        #expect(mode == "wal")
        let applied = try await database.read { db in try Self.migrator.appliedIdentifiers(db) }
        #expect(applied == ["v1"])
        #expect(try TemporaryDirectory.permissions(of: path) == 0o600)
        #expect(try await database.read { db in try db.integrityCheck() } == ["ok"])
    }

    @Test func writeCommitsAndReadSees() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("rw.sqlite"), migrator: Self.migrator)
        let id = try await database.write { db -> Int64 in
            #expect(db.isInTransaction)
            try db.run("INSERT INTO item(name) VALUES (?)", ["Blade Runner"])
            return db.lastInsertRowID
        }
        let name = try await database.read { db in
            try db.queryOne("SELECT name FROM item WHERE id = ?", [.integer(id)])?.string("name")
        }
        #expect(name == "Blade Runner")
    }

    @Test func writeRollsBackOnThrow() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("rollback.sqlite"), migrator: Self.migrator)
        try await database.write { db in try db.run("INSERT INTO item(name) VALUES ('a')") }
        await #expect(throws: SQLiteError.self) {
            try await database.write { db in
                try db.run("INSERT INTO item(name) VALUES ('b')")
                try db.run("INSERT INTO item(name) VALUES ('a')")
            }
        }
        let count = try await database.read { db in try db.scalarInt("SELECT count(*) FROM item") }
        #expect(count == 1)
    }

    @Test func readRejectsWritesThenWritesStillWork() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("query-only.sqlite"), migrator: Self.migrator)
        do {
            try await database.read { db in try db.run("INSERT INTO item(name) VALUES ('x')") }
            Issue.record("expected a read-only error")
        } catch let error as SQLiteError {
            #expect(error.isReadOnly)
        }
        do {
            try await database.read { db in try db.execute("SELECT 1; DELETE FROM item") }
            Issue.record("expected a read-only error from a script")
        } catch let error as SQLiteError {
            #expect(error.isReadOnly)
        }
        try await database.write { db in try db.run("INSERT INTO item(name) VALUES ('y')") }
        let count = try await database.read { db in try db.scalarInt("SELECT count(*) FROM item") }
        #expect(count == 1)
    }

    /// A read leaves the connection's prepared statements prepared: no SQLITE_STMTSTATUS_REPREPARE after it.
    @Test func readsDoNotExpirePreparedStatements() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("reprepare.sqlite"), migrator: Self.migrator)
        let reprepares = try await database.write { db -> Int32 in
            try db.run("INSERT INTO item(name) VALUES (?)", [.text("a")])
            return try db.withStatement("INSERT INTO item(name) VALUES (?)") { $0.reprepareCount }
        }
        _ = try await database.read { db in try db.scalarInt("SELECT count(*) FROM item") }
        let after = try await database.write { db -> Int32 in
            try db.run("INSERT INTO item(name) VALUES (?)", [.text("b")])
            return try db.withStatement("INSERT INTO item(name) VALUES (?)") { $0.reprepareCount }
        }
        #expect(after == reprepares)
    }

    @Test func readCanUseASnapshotTransaction() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("snapshot.sqlite"), migrator: Self.migrator)
        try await database.write { db in try db.run("INSERT INTO item(name) VALUES ('a'), ('b')") }
        let (count, names) = try await database.read { db in
            try db.transaction(.deferred) {
                let count = try db.scalarInt("SELECT count(*) FROM item") ?? 0
                let names = try db.query("SELECT name FROM item ORDER BY name").map { try $0.string("name") }
                return (count, names)
            }
        }
        #expect(count == 2)
        #expect(names == ["a", "b"])
    }

    @Test func concurrentWritesAllLand() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("concurrent.sqlite"), migrator: Self.migrator)
        let writers = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<writers {
                group.addTask {
                    try await database.write { db in
                        try db.run("INSERT INTO item(name) VALUES (?)", [.text("item-\(index)")])
                    }
                }
            }
            try await group.waitForAll()
        }
        let count = try await database.read { db in try db.scalarInt("SELECT count(*) FROM item") }
        #expect(count == writers)
    }

    @Test func twoDatabaseActorsOnOneFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("shared.sqlite")
        let first = try Database(path: path, migrator: Self.migrator)
        let second = try Database(path: path, migrator: Self.migrator)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                let database = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    try await database.write { db in
                        try db.run("INSERT INTO item(name) VALUES (?)", [.text("n\(index)")])
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await first.read { db in try db.scalarInt("SELECT count(*) FROM item") } == 50)
    }

    @Test func garbageFileIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("garbage.sqlite")
        #expect(FileManager.default.createFile(
            atPath: path, contents: Data(String(repeating: "not a database ", count: 500).utf8)))
        do {
            _ = try Database(path: path, migrator: Self.migrator)
            Issue.record("expected a corrupt-file error")
        } catch let error as SQLiteError {
            #expect(error.isCorrupt)
        }
    }

    @Test func newerSchemaRefusesToOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("newer.sqlite")
        var newer = Self.migrator
        newer.registerMigration("v2") { db in try db.execute("CREATE TABLE extra(x)") }
        _ = try Database(path: path, migrator: newer)
        #expect(throws: MigrationError.newerSchema(unknown: ["v2"])) {
            _ = try Database(path: path, migrator: Self.migrator)
        }
    }

    @Test func closeThenUseIsMisuse() async throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("closed.sqlite"))
        try await database.close()
        do {
            _ = try await database.read { db in try db.scalarInt("SELECT 1") }
            Issue.record("expected a misuse error")
        } catch let error as SQLiteError {
            #expect(error.code == .misuse)
        }
    }
}
