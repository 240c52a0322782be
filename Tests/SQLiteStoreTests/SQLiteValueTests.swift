import SQLiteStore
import Testing

@Suite struct SQLiteValueTests {
    @Test func literalsAndConversions() {
        let literals: [SQLiteValue] = [nil, 42, 2.5, "text", true, false]
        #expect(literals == [.null, .integer(42), .real(2.5), .text("text"), .integer(1), .integer(0)])

        let optionalText: String? = nil
        let optionalRating: Double? = 7.5
        #expect(SQLiteValue(7) == .integer(7))
        #expect(SQLiteValue(Int64.max) == .integer(Int64.max))
        #expect(SQLiteValue(Int32(-3)) == .integer(-3))
        #expect(SQLiteValue(1.25) == .real(1.25))
        #expect(SQLiteValue("é") == .text("é"))
        #expect(SQLiteValue(true) == .integer(1))
        #expect(SQLiteValue([UInt8]([1, 2])) == .blob([1, 2]))
        #expect(SQLiteValue(optionalText) == .null)
        #expect(SQLiteValue(optionalRating) == .real(7.5))
        #expect(SQLiteValue.null.isNull)
        #expect(!SQLiteValue.integer(0).isNull)
    }

    @Test func description() {
        #expect(SQLiteValue.null.description == "NULL")
        #expect(SQLiteValue.text("it's").description == "'it''s'")
        #expect(SQLiteValue.blob([0x0A, 0xFF]).description == "x'0aff'")
    }

    @Test func everyKindRoundTrips() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let values: [SQLiteValue] = [
            .null,
            .integer(0), .integer(-1), .integer(Int64.max), .integer(Int64.min),
            .real(0.1), .real(-1e300), .real(Double.greatestFiniteMagnitude),
            .text(""), .text("plain ASCII"), .text("nul\u{0}inside"),
            .text("Amélie — 千と千尋の神隠し 🎬"), .text("Ærøskøbing"), .text("Ελληνικά"),
            .blob([]), .blob([0, 1, 2, 255, 0]), .blob(Array(repeating: 0xAB, count: 100_000)),
        ]
        for value in values {
            let read = try connection.scalar("SELECT ?", [value])
            #expect(read == value, "round trip of \(value)")
        }
    }

    @Test func storedInTableWithTypeofCheck() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t(v)")
        let values: [SQLiteValue] = [.null, .integer(7), .real(7.5), .text("ü"), .blob([9, 8])]
        for value in values {
            try connection.run("INSERT INTO t(v) VALUES (?)", [value])
        }
        let rows = try connection.query("SELECT v, typeof(v) AS kind FROM t ORDER BY rowid")
        #expect(rows.map { $0["v"] } == values)
        #expect(try rows.map { try $0.string("kind") } == ["null", "integer", "real", "text", "blob"])
    }
}
