import Testing
@testable import JSONRPC

@Suite("JSON structure scanner", .tags(.dispatch))
struct JSONStructureScannerTests {
    private typealias Scanned = Result<JSONStructureScanner.Shape, JSONStructureScanner.Failure>

    private func scan(_ text: String, maxDepth: Int = 64) -> Scanned {
        JSONStructureScanner.scan(utf8(text), maxDepth: maxDepth)
    }

    /// The text of each top-level element of a batch, or nil when `text` is not scanned as an array.
    private func elements(_ text: String) -> [String]? {
        guard case .success(.array(let ranges)) = scan(text) else { return nil }
        let bytes = utf8(text)
        return ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func depthLimitCountsEveryBracket() {
        let atLimit = String(repeating: "[", count: 4) + String(repeating: "]", count: 4)
        let overLimit = String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
        #expect(scan(atLimit, maxDepth: 4) == .success(.array(elements: [1..<7])))
        #expect(scan(overLimit, maxDepth: 4) == .failure(.tooDeep(limit: 4)))
        #expect(scan(#"{"a":{"b":[{"c":1}]}}"#, maxDepth: 3) == .failure(.tooDeep(limit: 3)))
        #expect(scan(#"{"a":{"b":[{"c":1}]}}"#, maxDepth: 4) == .success(.object))
    }

    @Test func bracketsInsideStringsDoNotCount() {
        #expect(scan(#"{"a":"[[[[[[{{{{"}"#, maxDepth: 1) == .success(.object))
        #expect(scan(#"{"a":"}"}"#) == .success(.object))
    }

    @Test func batchElementsIncludingNestedObjects() {
        let batch = #"[ {"id":1,"params":{"a":[1,2],"b":{"c":3}}} ,{"id":2}, [4,5],"s" , 6 ,null]"#
        #expect(elements(batch) == [
            #"{"id":1,"params":{"a":[1,2],"b":{"c":3}}}"#, #"{"id":2}"#, "[4,5]", #""s""#, "6", "null",
        ])
    }

    @Test func stringsWithBracketsCommasAndEscapedQuotes() {
        let batch = #"[{"m":"a,b]c}"},"x\"],[\\",{"q":"\\\"}"}]"#
        #expect(elements(batch) == [#"{"m":"a,b]c}"}"#, #""x\"],[\\""#, #"{"q":"\\\"}"}"#])
    }

    @Test func whitespaceAroundElementsIsTrimmed() {
        #expect(elements("[\n  1 ,\t2\r\n ]") == ["1", "2"])
    }

    @Test func emptyBatchHasNoElements() {
        #expect(scan("[]") == .success(.array(elements: [])))
        #expect(scan(" [ \n ] ") == .success(.array(elements: [])))
    }

    @Test func scalarsAndEmptyInput() {
        #expect(scan("1") == .success(.other))
        #expect(scan(#" "text" "#) == .success(.other))
        #expect(scan("null") == .success(.other))
        #expect(scan("") == .success(.empty))
        #expect(scan(" \r\n\t") == .success(.empty))
        #expect(scan(#"{"a":1}"#) == .success(.object))
    }

    @Test func unbalancedInput() {
        #expect(scan("{") == .failure(.unbalanced))
        #expect(scan("]") == .failure(.unbalanced))
        #expect(scan(#"{"a":"}"#) == .failure(.unbalanced))
        #expect(scan(#"[1,{"a":2}"#) == .failure(.unbalanced))
    }
}
