import SQLiteStore
import Testing

@Suite struct DatabaseMigratorTests {
    /// Two migrations; each logs its run in `migration_log`, so a second run would be visible (and the
    /// CREATE TABLE statements would fail).
    /// `firstOnly`: "v1-movie" alone, as an older version had it.
    static func migrator(extra: Bool = false, firstOnly: Bool = false) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-movie") { db in
            try db.execute("""
                CREATE TABLE migration_log(identifier TEXT NOT NULL);
                CREATE TABLE movie(id INTEGER PRIMARY KEY, title TEXT NOT NULL);
                INSERT INTO migration_log VALUES ('v1-movie');
                """)
        }
        if firstOnly { return migrator }
        migrator.registerMigration("v2-rating") { db in
            try db.execute("""
                ALTER TABLE movie ADD COLUMN rating REAL;
                INSERT INTO migration_log VALUES ('v2-rating');
                """)
        }
        if extra {
            migrator.registerMigration("v3-favorite") { db in
                try db.execute("CREATE TABLE favorite(movie_id INTEGER NOT NULL REFERENCES movie(id))")
            }
        }
        return migrator
    }

    @Test func appliesOnceAndRecords() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let migrator = Self.migrator()
        #expect(migrator.identifiers == ["v1-movie", "v2-rating"])
        #expect(try migrator.appliedIdentifiers(connection) == [])
        #expect(try !migrator.hasCompletedMigrations(connection))

        try migrator.migrate(connection)
        #expect(try migrator.appliedIdentifiers(connection) == ["v1-movie", "v2-rating"])
        #expect(try migrator.hasCompletedMigrations(connection))
        let recorded = try connection.query("SELECT identifier, applied_at FROM schema_migrations ORDER BY rowid")
        #expect(try recorded.map { try $0.string("identifier") } == ["v1-movie", "v2-rating"])
        #expect(try recorded.allSatisfy { try $0.string("applied_at").hasSuffix("Z") })

        // A second migrate is a no-op.
        try migrator.migrate(connection)
        #expect(try connection.scalarInt("SELECT count(*) FROM migration_log") == 2)
        #expect(try connection.scalarInt("SELECT count(*) FROM schema_migrations") == 2)
    }

    @Test func appliesOnlyMissingMigrations() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try Self.migrator().migrate(connection)
        try Self.migrator(extra: true).migrate(connection)
        let applied = try Self.migrator(extra: true).appliedIdentifiers(connection)
        #expect(applied == ["v1-movie", "v2-rating", "v3-favorite"])
        #expect(try connection.scalarInt("SELECT count(*) FROM migration_log") == 2)
        try connection.run("INSERT INTO movie(id, title) VALUES (1, 'Heat')")
        try connection.run("INSERT INTO favorite(movie_id) VALUES (1)")
    }

    @Test func unknownRecordedMigrationIsNewerSchema() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try Self.migrator(extra: true).migrate(connection)
        #expect(throws: MigrationError.newerSchema(unknown: ["v3-favorite"])) {
            try Self.migrator().migrate(connection)
        }
        var older = DatabaseMigrator()
        older.registerMigration("v1-movie") { _ in }
        #expect(throws: MigrationError.newerSchema(unknown: ["v2-rating", "v3-favorite"])) {
            try older.migrate(connection)
        }
    }

    @Test func failingMigrationRollsBackAndStops() throws {
        struct Broken: Error {}
        let connection = try SQLiteConnection(path: ":memory:")
        var migrator = DatabaseMigrator()
        migrator.registerMigration("good") { db in try db.execute("CREATE TABLE good(x)") }
        migrator.registerMigration("bad") { db in
            try db.execute("CREATE TABLE half_done(x)")
            throw Broken()
        }
        migrator.registerMigration("never") { db in try db.execute("CREATE TABLE never(x)") }
        #expect(throws: Broken.self) { try migrator.migrate(connection) }
        #expect(try migrator.appliedIdentifiers(connection) == ["good"])
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .map { try $0.string(0) }
        #expect(tables == ["good", "schema_migrations"])
    }

    @Test func duplicateIdentifierIsRejected() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        var migrator = DatabaseMigrator()
        migrator.registerMigration("same") { _ in }
        migrator.registerMigration("same") { _ in }
        #expect(throws: MigrationError.duplicateIdentifier("same")) { try migrator.migrate(connection) }
    }
}

/// The schema stamp: what `migrate` leaves in `PRAGMA user_version`, and what a stamped database skips.
@Suite struct SchemaStampTests {
    @Test func migrateStampsAndTheStampIsReadWithoutTheSchema() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("stamped.sqlite")
        let migrator = DatabaseMigratorTests.migrator()
        do {
            let connection = try SQLiteConnection(path: path)
            #expect(try !migrator.isStamped(connection))
            try migrator.migrate(connection)
            #expect(try connection.userVersion() == Int(migrator.schemaStamp))
        }
        let reopened = try SQLiteConnection(path: path)
        #expect(reopened.schemaMemoryUsed == 0, "opening reads the header only")
        #expect(try migrator.isStamped(reopened))
        #expect(reopened.schemaMemoryUsed == 0, "the stamp is in the header")
        _ = try reopened.scalarInt("SELECT count(*) FROM movie")
        #expect(reopened.schemaMemoryUsed > 0)
    }

    @Test func theStampDependsOnEveryIdentifierAndItsOrder() {
        var reordered = DatabaseMigrator()
        reordered.registerMigration("v2-rating") { _ in }
        reordered.registerMigration("v1-movie") { _ in }
        let stamps = [
            DatabaseMigratorTests.migrator().schemaStamp, DatabaseMigratorTests.migrator(extra: true).schemaStamp,
            reordered.schemaStamp, DatabaseMigrator().schemaStamp,
        ]
        #expect(Set(stamps).count == stamps.count)
        #expect(!stamps.contains(0), "0 is an unstamped database's user_version")
    }

    @Test func aNewerMigratorsStampIsNotTakenForOursAndItsDatabaseIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("newer.sqlite")
        _ = try Database(path: path, migrator: DatabaseMigratorTests.migrator(extra: true))
        #expect(throws: MigrationError.newerSchema(unknown: ["v3-favorite"])) {
            _ = try Database(path: path, migrator: DatabaseMigratorTests.migrator())
        }
    }

    @Test func aStampedDatabaseOpensWithTheWritersSettingsMadeBeforeItsFirstUse() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("settings.sqlite")
        let migrator = DatabaseMigratorTests.migrator()
        var configuration = DatabaseConfiguration()
        configuration.writerCacheKiB = 300
        try await Database(path: path, configuration: configuration, migrator: migrator).close()
        let stamped = try SQLiteConnection(path: path)
        #expect(try migrator.isStamped(stamped) && stamped.journalMode() == "wal")

        let database = try Database(path: path, configuration: configuration, migrator: migrator)
        let (synchronous, cacheSize) = try await database.write { db in
            (try db.scalarInt("PRAGMA synchronous"), try db.scalarInt("PRAGMA cache_size"))
        }
        #expect(synchronous == 1, "NORMAL")
        #expect(cacheSize == -300)
        try await database.write { db in try db.run("INSERT INTO movie(title) VALUES ('Heat')") }
        #expect(try await database.read { db in try db.scalarInt("SELECT count(*) FROM movie") } == 1)
        try await database.close()
    }

    @Test func anUnstampedDatabaseIsCheckedMigratedAndStamped() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("older.sqlite")
        // As a version before the stamp left it: the first migration only, user_version 0.
        do {
            let connection = try SQLiteConnection(path: path)
            try DatabaseMigratorTests.migrator(firstOnly: true).migrate(connection)
            try connection.setUserVersion(0)
        }
        let migrator = DatabaseMigratorTests.migrator()
        try await Database(path: path, migrator: migrator).close()
        let connection = try SQLiteConnection(path: path)
        #expect(try migrator.isStamped(connection))
        #expect(try connection.query("SELECT identifier FROM migration_log").map { try $0.string(0) }
            == ["v1-movie", "v2-rating"])
    }
}
