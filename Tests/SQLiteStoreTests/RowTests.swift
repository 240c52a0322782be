import SQLiteStore
import Testing

@Suite struct RowTests {
    let row = Row(
        columnNames: ["id", "Title", "rating", "adult", "poster", "missing"],
        values: [.integer(42), .text("Heat"), .real(8.5), .integer(0), .blob([1, 2]), .null])

    @Test func accessByIndexAndName() throws {
        #expect(row.count == 6)
        #expect(row[0] == .integer(42))
        #expect(row["Title"] == .text("Heat"))
        #expect(row["title"] == .text("Heat"), "case-insensitive like SQLite")
        #expect(row["nope"] == .null)
        #expect(row[99] == .null)
        #expect(row.hasColumn("RATING"))
        #expect(!row.hasColumn("nope"))

        #expect(try row.int("id") == 42)
        #expect(try row.int64(0) == 42)
        #expect(try row.double("rating") == 8.5)
        #expect(try row.double("id") == 42.0)
        #expect(try row.string(1) == "Heat")
        #expect(try row.bool("adult") == false)
        #expect(try row.blob("poster") == [1, 2])
    }

    @Test func optionalVariants() throws {
        #expect(try row.optionalInt("missing") == nil)
        #expect(try row.optionalInt64("missing") == nil)
        #expect(try row.optionalDouble("missing") == nil)
        #expect(try row.optionalString("missing") == nil)
        #expect(try row.optionalBool("missing") == nil)
        #expect(try row.optionalBlob("missing") == nil)
        #expect(try row.optionalInt("id") == 42)
        #expect(try row.optionalString(1) == "Heat")
    }

    @Test func mismatchesThrow() {
        let mismatch = { (error: any Error) -> Bool in
            (error as? SQLiteError)?.code == .mismatch
        }
        #expect(performing: { try row.int("missing") }, throws: mismatch)
        #expect(performing: { try row.string("id") }, throws: mismatch)
        #expect(performing: { try row.int("Title") }, throws: mismatch)
        #expect(performing: { try row.int("rating") }, throws: mismatch)
        #expect(performing: { try row.int("nope") }, throws: mismatch)
        #expect(performing: { try row.optionalInt(99) }, throws: mismatch)
    }

    @Test func integralRealReadsAsInt() throws {
        let real = Row(columnNames: ["x"], values: [.real(3.0)])
        #expect(try real.int("x") == 3)
    }
}
