import SQLiteStore
import Testing

@Suite struct BorrowedBindingsTests {
    @Test func storesEveryKindOfValueAsPlainBindsDo() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t(a, b, c, d)")
        var values = BorrowedBindings()
        let samples: [(String, String?, Int64, String)] = [("", nil, -7, "naïve ✓"), ("x", "y", .max, "")]
        for row in samples {
            values.append(row.0)
            values.append(row.1)
            values.append(row.2)
            values.append(row.3)
        }
        try connection.withStatement("INSERT INTO t VALUES (?, ?, ?, ?), (?, ?, ?, ?)") { statement in
            try statement.run(borrowing: values)
        }
        let rows = try connection.query("SELECT a, b, c, d, typeof(a), typeof(d) FROM t ORDER BY rowid")
        // An empty text is text, not NULL; a nil is NULL.
        #expect(rows.map { $0.values } == [
            [.text(""), .null, .integer(-7), .text("naïve ✓"), .text("text"), .text("text")],
            [.text("x"), .text("y"), .integer(.max), .text(""), .text("text"), .text("text")],
        ])
    }

    @Test func bindingsAreClearedAfterTheRunAndAfterAFailure() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t(a TEXT NOT NULL UNIQUE)")
        let statement = try connection.prepare("INSERT INTO t VALUES (?)")
        var values = BorrowedBindings()
        values.append("once")
        try statement.run(borrowing: values)
        #expect(performing: { try statement.run(borrowing: values) }, throws: { ($0 as? SQLiteError) != nil })
        // Nothing is left bound: stepping again inserts NULL, which the column refuses.
        #expect(performing: { try statement.run() }, throws: { ($0 as? SQLiteError) != nil })
        #expect(try connection.query("SELECT a FROM t").map { try $0.string(0) } == ["once"])
    }

    @Test func theCountMustMatchTheParameters() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let statement = try connection.prepare("SELECT ?, ?")
        var values = BorrowedBindings()
        values.append(Int64(1))
        #expect(performing: { try statement.run(borrowing: values) }, throws: { ($0 as? SQLiteError)?.code == .range })
    }
}
