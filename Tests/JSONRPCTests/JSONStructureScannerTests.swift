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

    /// `endOfPlainRun` reads eight bytes at a time: the byte that ends a run (a quote, a backslash or one below
    /// 0x20, never one of 0x80 and up) is found at every position of a word and of the tail, from every
    /// start, as a byte-by-byte search finds it; a byte just past the special one (where a borrow could mark
    /// it) never wins.
    @Test func plainRunsEndWhereAByteByByteSearchEnds() {
        func byteByByte(_ bytes: [UInt8], from start: Int) -> Int {
            bytes.indices.dropFirst(start).first { bytes[$0] == 0x22 || bytes[$0] == 0x5C || bytes[$0] < 0x20 }
                ?? bytes.count
        }
        let plain: [UInt8] = [0x61, 0x20, 0x7F, 0x80, 0xC3, 0xA9, 0xFF, 0x21, 0x23, 0x5B, 0x5D, 0x5D]
        let enders: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x0A, 0x1F]
        for length in 0...20 {
            let base = (0..<length).map { plain[$0 % plain.count] }
            var cases = [base]
            for position in 0..<length {
                for ender in enders {
                    var bytes = base
                    bytes[position] = ender
                    cases.append(bytes)
                    // A byte right after the ender that a borrow from it would mark.
                    if position + 1 < length {
                        bytes[position + 1] = 0x00
                        cases.append(bytes)
                    }
                }
            }
            for bytes in cases {
                for start in 0...length {
                    let found = bytes.withUnsafeBufferPointer { JSONStructureScanner.endOfPlainRun($0, from: start) }
                    #expect(found == byteByByte(bytes, from: start), "\(bytes) from \(start)")
                }
            }
        }
    }

    @Test func depthLimitCountsEveryBracket() {
        let atLimit = String(repeating: "[", count: 4) + String(repeating: "]", count: 4)
        let overLimit = String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
        #expect(scan(atLimit, maxDepth: 4) == .success(.array(elements: [1..<7])))
        #expect(scan(overLimit, maxDepth: 4) == .failure(.tooDeep(limit: 4)))
        #expect(scan(#"{"a":{"b":[{"c":1}]}}"#, maxDepth: 3) == .failure(.tooDeep(limit: 3)))
        #expect(scan(#"{"a":{"b":[{"c":1}]}}"#, maxDepth: 4) == .success(.object))
    }

    /// Open containers are kept in bits for the first 64 levels and past them in an array: objects and
    /// arrays alternating 100 deep close right on either side of that line, and a mismatched closer is
    /// refused at any depth.
    @Test func containersDeeperThanSixtyFourLevelsCloseRight() {
        let opening = (0..<100).map { $0 % 2 == 0 ? #"{"k":"# : "[1," }.joined()
        let closing = (0..<100).reversed().map { $0 % 2 == 0 ? "}" : "]" }.joined()
        #expect(scan(opening + "2" + closing, maxDepth: 100) == .success(.object))
        #expect(scan(opening + "2" + closing, maxDepth: 99) == .failure(.tooDeep(limit: 99)))
        var swapped = Array(closing)
        swapped[20] = swapped[20] == "}" ? "]" : "}"  // level 80: in the array part
        guard case .failure(.invalid) = scan(opening + "2" + String(swapped), maxDepth: 100) else {
            Issue.record("a mismatched closer at level 80 was accepted")
            return
        }
        swapped = Array(closing)
        swapped[60] = swapped[60] == "}" ? "]" : "}"  // level 40: in the bits
        guard case .failure(.invalid) = scan(opening + "2" + String(swapped), maxDepth: 100) else {
            Issue.record("a mismatched closer at level 40 was accepted")
            return
        }
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

    /// The byte offset where `bytes` are refused as invalid JSON, or nil when it is not refused that way.
    private func refusedAt(_ bytes: [UInt8]) -> Int? {
        let scanned = JSONStructureScanner.scan(bytes, maxDepth: 64)
        guard case .failure(.invalid(_, let offset)) = scanned else { return nil }
        return offset
    }

    /// Valid JSON texts (RFC 8259's examples among them) and the shape each is scanned as.
    static let accepted: [(String, JSONStructureScanner.Shape)] = [
        (#"{"Image":{"Width":800,"Height":600,"Title":"View from 15th Floor","Thumbnail":{"#
            + #""Url":"http://www.example.com/image/481989943","Height":125,"Width":100},"Animated":false,"#
            + #""IDs":[116,943,234,38793]}}"#, .object),
        (#"[{"precision":"zip","Latitude":37.7668,"Longitude":-122.3959,"Address":"","City":"SAN FRANCISCO","#
            + #""State":"CA","Zip":"94107","Country":"US"}]"#, .array(elements: [1..<139])),
        (#""Hello world!""#, .other),
        ("42", .other),
        ("true", .other), ("false", .other), ("null", .other),
        ("0", .other), ("-0", .other), ("-1", .other), ("0.5", .other), ("1.25e10", .other), ("1E+2", .other),
        ("1e-2", .other), ("-0.0e0", .other), ("123456789012345678901234567890", .other), ("1e400", .other),
        (#""\"\\\/\b\f\n\r\t""#, .other),
        (#""\u0041\u00e9\uABCD\uabcd""#, .other),
        (#""\ud83c\udfac""#, .other),  // a surrogate pair: 🎬
        ("\"caf\u{E9} \u{1F3AC}\"", .other),  // raw UTF-8
        (" \t\r\n{ \"a\" : [ 1 , { } , [ ] ] } \t\r\n", .object),
        (#"{"":""}"#, .object),
        ("{}", .object),
        ("[]", .array(elements: [])),
        (#"{"a":"\u007f"}"#, .object),
        ("{\"a\":\"\u{7F}\"}", .object),  // DEL is not a control character for JSON
    ]

    @Test(arguments: accepted)
    func acceptsValidJSON(text: String, shape: JSONStructureScanner.Shape) {
        #expect(scan(text) == .success(shape))
    }

    /// Invalid JSON texts and the byte offset where each is refused. Every reproduction of "lenient JSON" and
    /// "BOM" in docs/RELIABILITY.md is here.
    static let refused: [(String, Int)] = [
        // Trailing and doubled commas, missing values.
        (#"{"jsonrpc":"2.0","id":1,"method":"server.info",}"#, 47),
        (#"[{"jsonrpc":"2.0","id":1,"method":"server.info"},]"#, 49),
        ("[1,,2]", 3), ("[,1]", 1), (#"{,"a":1}"#, 1), (#"{"a":}"#, 5), (#"{"a"}"#, 4), (#"{"a" 1}"#, 5),
        ("[1 2]", 3), (#"{"a":1 "b":2}"#, 7), ("[1,]", 3),
        // Keys must be strings.
        ("{a:1}", 1), ("{1:1}", 1), ("{null:1}", 1),
        // Numbers.
        ("-", 1), ("01", 1), ("1.", 2), ("1e+", 3), ("1e", 2), (".5", 0), ("+1", 0), ("-a", 1), ("1.e5", 2),
        ("00", 1), ("-01", 2), ("0x10", 1), ("1.5.5", 3), ("NaN", 0), ("Infinity", 0), ("-Infinity", 1),
        (#"{"jsonrpc":"2.0","id":01,"method":"server.info"}"#, 23),
        // Literals.
        ("tru", 0), ("nul", 0), ("True", 0), ("nulll", 4), ("[true false]", 6), ("undefined", 0),
        // Escapes.
        (#"{"params":{"language":"\x"}}"#, 23), (#""\u12""#, 1), (#""\u12G4""#, 1), (#""\'""#, 1),
        (#""\"#, 0), (#""\U0041""#, 1), ("\"\\\u{0}\"", 1),
        // Unpaired surrogate escapes: Swift strings cannot hold them.
        (#""\ud800""#, 1), (#""\udc00""#, 1), (#""\ud800x""#, 1), (#""\ud800\u0041""#, 1),
        (#""\udc00\ud800""#, 1), (#""a\ud83c""#, 2),
        // Raw control characters in strings.
        ("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"server.info\",\"x\":\"a\u{01}b\"}", 53),
        ("\"a\tb\"", 2), ("\"a\nb\"", 2), ("\"\u{0}\"", 1), ("\"\u{1F}\"", 1),
        // One value, with only JSON whitespace around it.
        ("{} {}", 3), ("1 2", 2), ("[] x", 3), ("{}\u{0}", 2), ("\u{0}0", 0), ("\u{C}{}", 0), ("\u{A0}{}", 0),
        ("\u{FEFF}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server.info\"}", 0),
        // Unterminated.
        ("{", 1), ("]", 0), ("}", 0), (#"{"a":"}"#, 5), (#"[1,{"a":2}"#, 10), (#"{"a":1"#, 6), ("[", 1),
        ("\"abc", 0), ("[1,", 3), ("{]", 1), ("[}", 1), (#"{"a":[}"#, 6),
    ]

    @Test(arguments: refused)
    func refusesInvalidJSON(text: String, offset: Int) {
        #expect(refusedAt(utf8(text)) == offset)
    }

    @Test func refusesUTF16AndNULBytes() {
        let request = #"{"jsonrpc":"2.0","id":1,"method":"server.info"}"#
        let utf16LE = request.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16BE = request.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(refusedAt(utf16LE) == 1)
        #expect(refusedAt(utf16BE) == 0)
        #expect(refusedAt([0x00, 0x30]) == 0)
        #expect(refusedAt([0x30, 0x00]) == 1)
        #expect(refusedAt([0xEF, 0xBB, 0xBF]) == 0)
    }

    @Test func deepNestingIsRefusedBeforeTheEnd() {
        // Far beyond the limit, and never closed: the depth bound answers first.
        let deep = String(repeating: "[", count: 100_000)
        #expect(scan(deep, maxDepth: 64) == .failure(.tooDeep(limit: 64)))
        let nested = String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64)
        #expect(scan(nested, maxDepth: 64) == .success(.object))
        #expect(scan("[" + nested + "]", maxDepth: 64) == .failure(.tooDeep(limit: 64)))
    }

    @Test func batchElementsAreExactValues() {
        #expect(elements(#"[1,-2.5e3,"a",true,false,null,{},[],{"b":[1]}]"#)
            == ["1", "-2.5e3", #""a""#, "true", "false", "null", "{}", "[]", #"{"b":[1]}"#])
        #expect(elements("[ \"\\\"]\" ]") == [#""\"]""#])
    }

    @Test func unbalancedInput() {
        #expect(refusedAt(utf8("{")) != nil)
        #expect(refusedAt(utf8("]")) != nil)
        #expect(refusedAt(utf8(#"{"a":"}"#)) != nil)
        #expect(refusedAt(utf8(#"[1,{"a":2}"#)) != nil)
    }
}
