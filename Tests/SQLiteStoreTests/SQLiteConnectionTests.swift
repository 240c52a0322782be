import Foundation
import SQLiteStore
import Testing

@Suite struct SQLiteConnectionTests {
    @Test func openUseAndClose() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("open.sqlite")
        let connection = try SQLiteConnection(path: path)
        #expect(connection.path == path)
        #expect(!connection.isReadOnly)
        try connection.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2);")
        #expect(connection.changes == 2)
        #expect(try connection.scalarInt("SELECT count(*) FROM t") == 2)
        #expect(try connection.scalarInt("PRAGMA foreign_keys") == 1)

        try connection.close()
        #expect(connection.isClosed)
        try connection.close()
        #expect(performing: { try connection.query("SELECT 1") }, throws: { error in
            (error as? SQLiteError)?.code == .misuse
        })

        let reopened = try SQLiteConnection(path: path)
        #expect(try reopened.scalarInt("SELECT sum(x) FROM t") == 3)
    }

    /// An immutable open reads a WAL database without creating -wal/-shm files, refuses writes as
    /// read-only, and takes paths whose characters mean something in a URI.
    @Test func immutableOpenReadsWithoutSideFiles() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("odd ?name#100%.sqlite")
        do {
            let writer = try SQLiteConnection(path: path)
            try writer.enableWAL()
            try writer.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (7);")
            try writer.close()  // The last close folds the WAL in and deletes -wal and -shm.
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))

        let reader = try SQLiteConnection(path: path, immutable: true)
        #expect(reader.isReadOnly)
        #expect(try reader.scalarInt("SELECT x FROM t") == 7)
        #expect(performing: { try reader.execute("INSERT INTO t VALUES (8)") }, throws: { error in
            (error as? SQLiteError)?.isReadOnly == true
        })
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func insertHelpers() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
        try connection.run("INSERT INTO t(name) VALUES (?)", ["a"])
        try connection.run("INSERT INTO t(name) VALUES (?)", ["b"])
        #expect(connection.lastInsertRowID == 2)
        try connection.run("UPDATE t SET name = upper(name)")
        #expect(connection.changes == 2)
        #expect(connection.totalChanges == 4)
        #expect(try connection.queryOne("SELECT name FROM t WHERE id = ?", [2])?.string("name") == "B")
        #expect(try connection.queryOne("SELECT name FROM t WHERE id = ?", [99]) == nil)
        #expect(try connection.scalarInt("SELECT id FROM t WHERE id = 99") == nil)
        #expect(try connection.scalarInt("SELECT NULL") == nil)
    }

    @Test func newFileIsPrivate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("private.sqlite")
        let connection = try SQLiteConnection(path: path)
        try connection.enableWAL()
        try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        #expect(try TemporaryDirectory.permissions(of: path) == 0o600)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try TemporaryDirectory.permissions(of: path + "-wal") == 0o600)
        #expect(try TemporaryDirectory.permissions(of: path + "-shm") == 0o600)
    }

    @Test func existingFileKeepsItsMode() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("existing.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
        _ = try SQLiteConnection(path: path)
        #expect(try TemporaryDirectory.permissions(of: path) == 0o640)
    }

    @Test func walOnFileDatabase() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("wal.sqlite"))
        #expect(try connection.journalMode() == "delete")
        try connection.enableWAL()
        #expect(try connection.journalMode() == "wal")
        #expect(try connection.scalarInt("PRAGMA synchronous") == 1, "NORMAL")
        try connection.enableWAL()
    }

    @Test func walRefusedInMemoryThrows() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        #expect(throws: SQLiteError.self) { try connection.enableWAL() }
    }

    @Test func transactionCommits() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t(x)")
        let value = try connection.transaction(.immediate) { () throws -> Int in
            #expect(connection.isInTransaction)
            try connection.run("INSERT INTO t VALUES (1)")
            return 7
        }
        #expect(value == 7)
        #expect(!connection.isInTransaction)
        #expect(try connection.scalarInt("SELECT count(*) FROM t") == 1)
    }

    @Test func transactionRollsBackOnThrow() throws {
        struct Abort: Error {}
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t(x)")
        #expect(throws: Abort.self) {
            try connection.transaction(.deferred) {
                try connection.run("INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.scalarInt("SELECT count(*) FROM t") == 0)
    }

    @Test func nestedTransactionUsesSavepoint() throws {
        struct Abort: Error {}
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t(x)")
        try connection.transaction(.immediate) {
            try connection.run("INSERT INTO t VALUES (1)")
            #expect(throws: Abort.self) {
                try connection.transaction {
                    try connection.run("INSERT INTO t VALUES (2)")
                    throw Abort()
                }
            }
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (3)")
            }
            #expect(connection.isInTransaction)
        }
        let rows = try connection.query("SELECT x FROM t ORDER BY x").map { try $0.int(0) }
        #expect(rows == [1, 3])
    }

    @Test func uniqueViolationIsCaughtByCode() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, email TEXT UNIQUE NOT NULL)")
        try connection.run("INSERT INTO user(email) VALUES (?)", ["a@example.com"])

        var caught: SQLiteError?
        do {
            try connection.run("INSERT INTO user(email) VALUES (?)", ["a@example.com"])
        } catch let error as SQLiteError where error.code.primary == .constraint {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.code == .constraintUnique)
        #expect(error.isConstraintViolation)
        #expect(error.isUniqueViolation)
        #expect(error.kind == .uniqueViolation)
        #expect(!error.isBusy && !error.isCorrupt && !error.isReadOnly && !error.isDiskFull)
        #expect(!error.description.contains("a@example.com"), "argument values never reach messages")
        switch error.code {
        case .constraintPrimaryKey:
            Issue.record("extended pattern must match exactly")
        case .constraint:
            break
        default:
            Issue.record("primary pattern must match extended codes")
        }

        do {
            try connection.run("INSERT INTO user(id, email) VALUES (1, 'b@example.com')")
            Issue.record("expected a primary key violation")
        } catch let error as SQLiteError {
            #expect(error.code == .constraintPrimaryKey)
            #expect(error.isUniqueViolation)
        }

        do {
            try connection.run("INSERT INTO user(email) VALUES (NULL)")
            Issue.record("expected a NOT NULL violation")
        } catch let error as SQLiteError {
            #expect(error.code == .constraintNotNull)
            #expect(error.kind == .constraintViolation)
            #expect(!error.isUniqueViolation)
        }
    }

    @Test func foreignKeysAreEnforced() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("""
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(parent_id INTEGER NOT NULL REFERENCES parent(id));
            """)
        #expect(performing: { try connection.run("INSERT INTO child VALUES (1)") }, throws: { error in
            (error as? SQLiteError)?.code == .constraintForeignKey
        })
    }

    @Test func readOnlyRejectsWrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("readonly.sqlite")
        do {
            let writer = try SQLiteConnection(path: path)
            try writer.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        }
        let reader = try SQLiteConnection(path: path, readOnly: true)
        #expect(reader.isReadOnly)
        #expect(try reader.scalarInt("SELECT x FROM t") == 1)
        do {
            try reader.run("INSERT INTO t VALUES (2)")
            Issue.record("expected a read-only error")
        } catch let error as SQLiteError {
            #expect(error.isReadOnly)
            #expect(error.kind == .readOnly)
        }
    }

    @Test func readOnlyOpenOfMissingFileFails() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absent.sqlite")
        #expect(performing: { try SQLiteConnection(path: path, readOnly: true) }, throws: { error in
            (error as? SQLiteError)?.code.primary == .cantOpen
        })
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func missingDirectoryIsCantOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("no/such/dir.sqlite")
        #expect(performing: { try SQLiteConnection(path: path) }, throws: { error in
            (error as? SQLiteError)?.code.primary == .cantOpen
        })
    }

    @Test(arguments: [16, 4096, 100_000])
    func garbageFileIsCorrupt(size: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("garbage.sqlite")
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 13) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        do {
            _ = try SQLiteConnection(path: path)
            Issue.record("expected a corrupt-file error")
        } catch let error as SQLiteError {
            #expect(error.isCorrupt)
            #expect(error.kind == .corrupt)
        }
        // The file is left untouched.
        #expect(FileManager.default.contents(atPath: path) == Data(bytes))
    }

    @Test func integrityCheckOnHealthyDatabase() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("healthy.sqlite"))
        try connection.execute("CREATE TABLE t(x UNIQUE); INSERT INTO t VALUES (1), (2);")
        #expect(try connection.integrityCheck() == ["ok"])
    }

    @Test func userVersion() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        #expect(try connection.userVersion() == 0)
        try connection.setUserVersion(12)
        #expect(try connection.userVersion() == 12)
    }

    @Test func busyWriterGetsBusyError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("busy.sqlite")
        let first = try SQLiteConnection(path: path)
        try first.enableWAL()
        try first.execute("CREATE TABLE t(x)")
        let second = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 0)
        second.beginRetryLimit = 1
        try first.transaction(.immediate) {
            try first.run("INSERT INTO t VALUES (1)")
            do {
                try second.transaction(.immediate) {}
                Issue.record("expected SQLITE_BUSY")
            } catch let error as SQLiteError {
                #expect(error.isBusy)
                #expect(error.kind == .busy)
            }
        }
        try second.transaction(.immediate) {
            try second.run("INSERT INTO t VALUES (2)")
        }
        #expect(try first.scalarInt("SELECT count(*) FROM t") == 2)
    }
}
