import SQLiteStore
import Testing

@Suite struct StatementTests {
    @Test func namedBinds() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE movie(id INTEGER PRIMARY KEY, title TEXT, rating REAL)")
        try connection.run(
            "INSERT INTO movie(id, title, rating) VALUES (:id, :title, :rating)",
            named: ["id": 1, ":title": "Alien", "rating": 8.4])
        try connection.run(
            "INSERT INTO movie(id, title, rating) VALUES (@id, $title, :rating)",
            named: ["id": 2, "$title": "Aliens", "rating": nil])

        let rows = try connection.query("SELECT * FROM movie WHERE id >= :min ORDER BY id", named: ["min": 1])
        #expect(rows.count == 2)
        #expect(try rows[0].string("title") == "Alien")
        #expect(try rows[1].optionalDouble("rating") == nil)

        let statement = try connection.prepare("SELECT :a + :b")
        try statement.bind(2, named: "a")
        try statement.bind(3, named: ":b")
        #expect(try statement.step())
        #expect(statement.value(at: 0) == .integer(5))
        #expect(statement.columnNames == [":a + :b"])
    }

    @Test func unknownNameAndWrongCountAreRangeErrors() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let isRange = { (error: any Error) -> Bool in (error as? SQLiteError)?.code == .range }
        #expect(performing: { try connection.run("SELECT :a", named: ["b": 1]) }, throws: isRange)
        #expect(performing: { try connection.run("SELECT ?, ?", [1]) }, throws: isRange)
        #expect(performing: { try connection.run("SELECT 1", [1]) }, throws: isRange)
        let statement = try connection.prepare("SELECT ?")
        #expect(performing: { try statement.bind(1, at: 2) }, throws: isRange)
        #expect(performing: { try statement.bind(1, at: 0) }, throws: isRange)
    }

    @Test func positionalBindByIndex() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let statement = try connection.prepare("SELECT ?2, ?1")
        #expect(statement.parameterCount == 2)
        try statement.bind("first", at: 1)
        try statement.bind("second", at: 2)
        let rows = try statement.allRows()
        #expect(rows.first?.values == [.text("second"), .text("first")])
        statement.reset()
        statement.clearBindings()
        #expect(try statement.allRows().first?.values == [.null, .null])
    }

    @Test func statementCacheReusesAndResets() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let sql = "SELECT ?"
        #expect(try connection.scalar(sql, ["a"]) == .text("a"))
        let first = try connection.withStatement(sql) { ObjectIdentifier($0) }
        for index in 0..<1000 {
            #expect(try connection.scalarInt(sql, [.integer(Int64(index))]) == index)
        }
        let second = try connection.withStatement(sql) { statement throws -> ObjectIdentifier in
            // Bindings were cleared after the previous use.
            #expect(try statement.step())
            #expect(statement.value(at: 0) == .null)
            return ObjectIdentifier(statement)
        }
        #expect(first == second)
        #expect(connection.cachedStatementCount == 1)

        // Nested use of the same SQL gets a separate statement.
        try connection.withStatement(sql) { outer in
            try outer.bind(["outer"])
            #expect(try outer.step())
            let inner = try connection.scalar(sql, ["inner"])
            #expect(inner == .text("inner"))
            #expect(outer.value(at: 0) == .text("outer"))
        }

        connection.clearStatementCache()
        #expect(connection.cachedStatementCount == 0)
    }

    @Test func cacheCapacityIsBounded() throws {
        let connection = try SQLiteConnection(path: ":memory:", statementCacheCapacity: 4)
        for index in 0..<20 {
            _ = try connection.scalar("SELECT \(index)")
        }
        #expect(connection.cachedStatementCount <= 4)
    }

    @Test func prepareRejectsScriptsAndEmptySQL() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let isMisuse = { (error: any Error) -> Bool in (error as? SQLiteError)?.code == .misuse }
        #expect(performing: { try connection.prepare("SELECT 1; SELECT 2") }, throws: isMisuse)
        #expect(performing: { try connection.prepare("  -- nothing\n") }, throws: isMisuse)
        // Trailing semicolons, whitespace and comments are fine.
        #expect(try connection.prepare("SELECT 1; -- done\n ;").allRows().count == 1)
    }

    @Test func syntaxErrorCarriesSQLAndMessage() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        do {
            _ = try connection.query("SELEC 1")
            Issue.record("expected a syntax error")
        } catch let error as SQLiteError {
            #expect(error.code == .error)
            #expect(error.sql == "SELEC 1")
            #expect(error.message.contains("syntax error"))
            #expect(error.description.contains("SELEC 1"))
        }
    }
}
