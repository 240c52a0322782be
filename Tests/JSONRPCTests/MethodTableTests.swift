import Testing
@testable import JSONRPC

@Suite("Method table", .tags(.dispatch))
struct MethodTableTests {
    /// The lookup every request makes (an FNV-1a bucket, then the names in it): 300 names, many sharing a
    /// bucket, are each found as the one registered under that name; names that are not registered, however
    /// close (a prefix, one byte more, another case), are not; a name registered again is found with its new
    /// entry.
    @Test func everyRegisteredNameAndNoOtherIsFound() async throws {
        var table = MethodTable()
        let names = (0..<300).map { "method.\($0)" } + ["", "a", "пример", "genres.list", String(repeating: "x", count: 200)]
        for name in names {
            table.registerRaw(name) { _, _ in Array(name.utf8) }
        }
        for name in names {
            let entry = try #require(table.entry(for: name), "\(name)")
            #expect(try await Self.result(of: entry) == name)
        }
        for stranger in ["method.", "method.3000", "Method.1", "genres.lis", "genres.list ", "приме", "b", "x"] {
            #expect(table.entry(for: stranger) == nil, "\(stranger)")
        }
        table.registerRaw("method.7") { _, _ in Array("again".utf8) }
        #expect(try await Self.result(of: try #require(table.entry(for: "method.7"))) == "again")
        #expect(table.methodNames.count == names.count)
    }

    private static func result(of entry: MethodTable.Entry) async throws -> String {
        let input = ParamsInput(paramsObject: Array("null".utf8))
        let bytes = try await entry.writeReply(input, RequestContext(id: nil, method: ""), [])
        return String(decoding: bytes, as: UTF8.self)
    }
}
