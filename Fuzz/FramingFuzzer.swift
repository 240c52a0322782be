// A libFuzzer target for the wire layer: both framing parsers, the dispatcher and JSONWriter.
//
// Built by scripts/fuzz.sh with `swiftc -sanitize=fuzzer,address -parse-as-library` on this file plus
// Sources/JSONRPC/*.swift as one module (no SwiftPM, so Package.swift stays as it is). Any violated
// invariant traps with `fatalError`, which libFuzzer reports as a crash and saves as a reproducer.
//
// Input layout: byte 0 picks the message size limit, byte 1 seeds the chunking, bytes 2... are the
// stream. Every input is fed to ContentLengthFraming and NewlineFraming twice, whole and in chunks split
// at input-derived points; every message and framing error then goes through Dispatcher.receive with a
// small table of test methods.
//
// Invariants:
//  1. Framing: the events do not depend on how the stream is chunked (except the reported size of an
//     oversized message, and header blocks over 8 KiB, whose fate depends on when they are seen);
//     every message is at most the limit; newline messages hold no newline and are not blank; no message
//     holds more bytes than the stream had.
//  2. Dispatch: at most one reply per message; exactly one for a framing error and for invalid UTF-8;
//     every reply is UTF-8 JSON without a raw newline: a response object or a non-empty array of them,
//     each with "jsonrpc": "2.0", an "id" (null, integer or string), exactly one of "result"/"error",
//     and an integer error code. A batch reply's results fill at most its budget (the message limit);
//     only errors go past it.
//  3. Framing detection: a stream starting with a Content-Length header is LSP, one starting with
//     `{` or `[` newline-delimited.
//  4. JSONWriter: for strings, integers, doubles and arrays taken from the input, the bytes it writes
//     equal JSONEncoder's (sorted keys, unescaped slashes) and parse back to the same values.

import Foundation
import Synchronization

// MARK: Test methods

private struct EchoMethod: RPCMethod {
    static let name = "echo"
    struct Params: Decodable, Sendable { var value: JSONValue? }
    typealias Result = JSONValue
}

private struct AddMethod: RPCMethod {
    static let name = "add"
    struct Params: Decodable, Sendable {
        var a: Int
        var b: Int
    }
    typealias Result = Int
}

private struct PingMethod: RPCMethod {
    static let name = "ping"
    typealias Params = NoParams
    typealias Result = NullResult
}

private struct FailMethod: RPCMethod {
    static let name = "fail"
    struct Params: Decodable, Sendable { var code: Int? }
    typealias Result = NullResult
}

private struct Boom: Error {}

private let table: MethodTable = {
    var table = MethodTable(allowedParams: ["echo": ["value"], "add": ["a", "b"], "ping": [], "fail": ["code"]])
    table.register(EchoMethod.self) { params, _ in params.value ?? .null }
    table.register(AddMethod.self) { params, _ in params.a &+ params.b }
    table.register(PingMethod.self) { _, _ in NullResult() }
    table.register(FailMethod.self) { params, _ in
        if let code = params.code { throw ResponseError(code: ErrorCode(rawValue: code), message: "failed") }
        throw Boom()
    }
    table.registerRaw("raw") { _, _ in Array(#"{"ok":true}"#.utf8) }
    table.onNotification("note") { _ in }
    return table
}()

private let limits = [64, 200, 1024, 8 * 1024, 16 * 1024 * 1024]

// MARK: Framing

private enum Event: Equatable {
    case message([UInt8])
    case tooLarge
    case invalidHeader(String)

    init(_ event: FrameEvent) {
        switch event {
        case .message(let bytes): self = .message(bytes)
        case .error(.messageTooLarge): self = .tooLarge  // its size depends on when it was noticed
        case .error(.invalidHeader(let reason)): self = .invalidHeader(reason)
        }
    }
}

private func run<F: MessageFraming>(_ framing: F, _ stream: [UInt8], cuts: [Int]) -> [FrameEvent] {
    var framing = framing
    var events: [FrameEvent] = []
    var start = 0
    for cut in cuts + [stream.count] where cut >= start {
        stream[start..<cut].withUnsafeBytes { framing.append($0) }
        start = cut
        var guardCount = 0
        while let event = framing.next() {
            events.append(event)
            guardCount += 1
            if guardCount > stream.count + 16 { fatalError("next() keeps returning events: an endless loop") }
        }
    }
    var guardCount = 0
    while let event = framing.finish() {
        events.append(event)
        guardCount += 1
        if guardCount > stream.count + 16 { fatalError("finish() keeps returning events: an endless loop") }
    }
    return events
}

private func checkFraming<F: MessageFraming>(_ make: () -> F, _ stream: [UInt8], cuts: [Int], limit: Int,
                                             newline: Bool) -> [FrameEvent] {
    let whole = run(make(), stream, cuts: [])
    let chunked = run(make(), stream, cuts: cuts)
    let oneByOne = stream.count <= 512 ? run(make(), stream, cuts: Array(0..<stream.count)) : chunked
    let longHeader = (whole + chunked + oneByOne).contains {
        if case .error(.invalidHeader(let reason)) = $0 { return reason.hasPrefix("Header block exceeds") }
        return false
    }
    if !longHeader {
        if whole.map(Event.init) != chunked.map(Event.init) || whole.map(Event.init) != oneByOne.map(Event.init) {
            fatalError("""
                \(newline ? "newline" : "content-length") framing depends on chunking: \
                whole \(whole) vs chunked at \(cuts) \(chunked) vs byte by byte \(oneByOne)
                """)
        }
    }
    var total = 0
    for case .message(let body) in whole + chunked {
        total += body.count
        if body.count > limit { fatalError("message of \(body.count) bytes passed the limit of \(limit)") }
        if newline {
            if body.contains(0x0A) { fatalError("newline-framed message contains a newline") }
            if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) {
                fatalError("blank newline-framed message was not skipped")
            }
        }
    }
    if total > 2 * stream.count { fatalError("messages hold more bytes than the stream had") }
    return whole
}

// MARK: Replies

private final class ReplyLog: Sendable {
    private let replies = Mutex<[[Data]]>([])

    func slot() -> Int {
        replies.withLock { state in
            state.append([])
            return state.count - 1
        }
    }

    func add(_ data: Data, to slot: Int) {
        replies.withLock { $0[slot].append(data) }
    }

    var all: [[Data]] { replies.withLock { $0 } }
}

/// What a reply member must look like; decoded with JSONDecoder, which keeps integers, booleans and
/// strings apart.
private struct ResponseShape: Decodable {
    struct ErrorShape: Decodable {
        var code: Int
        var message: String
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let keys = Set(container.allKeys.map(\.stringValue))
        guard keys == ["jsonrpc", "id", "result"] || keys == ["jsonrpc", "id", "error"] else {
            throw Problem("members must be jsonrpc, id and one of result/error, not \(keys.sorted())")
        }
        guard try container.decode(String.self, forKey: AnyCodingKey(stringValue: "jsonrpc")) == "2.0" else {
            throw Problem("jsonrpc is not 2.0")
        }
        _ = try container.decode(RequestID?.self, forKey: AnyCodingKey(stringValue: "id"))
        if keys.contains("error") {
            _ = try container.decode(ErrorShape.self, forKey: AnyCodingKey(stringValue: "error"))
        }
    }
}

private struct Problem: Error {
    var text: String
    init(_ text: String) { self.text = text }
}

private func checkReply(_ data: Data) {
    let bytes = [UInt8](data)
    if bytes.contains(0x0A) { fatalError("reply contains a raw newline (breaks newline framing): \(text(data))") }
    guard String(validating: bytes, as: UTF8.self) != nil else { fatalError("reply is not UTF-8") }
    guard StrictJSON.isValid(bytes) else { fatalError("reply is not RFC 8259 JSON: \(text(data))") }
    do {
        if bytes.first == UInt8(ascii: "[") {
            let batch = try JSONDecoder().decode([ResponseShape].self, from: data)
            if batch.isEmpty { fatalError("empty batch reply") }
        } else {
            _ = try JSONDecoder().decode(ResponseShape.self, from: data)
        }
    } catch {
        fatalError("malformed reply (\(error)): \(text(data))")
    }
}

/// A strict RFC 8259 validator (Foundation's decoder accepts trailing commas and malformed numbers).
private enum StrictJSON {
    static func isValid(_ b: [UInt8]) -> Bool {
        var i = 0
        func ws() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 } }
        func digits() -> Bool {
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i > start
        }
        func value(_ depth: Int) -> Bool {
            guard depth < 10_000 else { return false }
            ws()
            guard i < b.count else { return false }
            switch b[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let object = b[i] == UInt8(ascii: "{")
                let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
                i += 1
                ws()
                if i < b.count, b[i] == close { i += 1; return true }
                while true {
                    if object {
                        ws()
                        guard i < b.count, b[i] == UInt8(ascii: "\""), string() else { return false }
                        ws()
                        guard i < b.count, b[i] == UInt8(ascii: ":") else { return false }
                        i += 1
                    }
                    guard value(depth + 1) else { return false }
                    ws()
                    guard i < b.count else { return false }
                    if b[i] == close { i += 1; return true }
                    guard b[i] == UInt8(ascii: ",") else { return false }
                    i += 1
                }
            case UInt8(ascii: "\""):
                return string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if b[i] == UInt8(ascii: "-") { i += 1 }
                if i < b.count, b[i] == UInt8(ascii: "0") { i += 1 } else if !digits() { return false }
                if i < b.count, b[i] == UInt8(ascii: ".") {
                    i += 1
                    guard digits() else { return false }
                }
                if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
                    i += 1
                    if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                    guard digits() else { return false }
                }
                return true
            default:
                for literal in ["true", "false", "null"] where b[i...].starts(with: literal.utf8) {
                    i += literal.utf8.count
                    return true
                }
                return false
            }
        }
        func string() -> Bool {
            i += 1
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: "\"") { i += 1; return true }
                if c < 0x20 { return false }
                if c == UInt8(ascii: "\\") {
                    i += 1
                    guard i < b.count else { return false }
                    switch b[i] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        i += 1
                    case UInt8(ascii: "u"):
                        guard i + 4 < b.count, b[(i + 1)...(i + 4)].allSatisfy({ $0.isHexDigit }) else { return false }
                        i += 5
                    default:
                        return false
                    }
                } else {
                    i += 1
                }
            }
            return false
        }
        guard value(0) else { return false }
        ws()
        return i == b.count
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}

private func text(_ data: Data) -> String {
    String(decoding: data.prefix(600), as: UTF8.self)
}

private func dispatch(_ events: [FrameEvent], limit: Int) {
    let dispatcher = Dispatcher(
        table: table, limits: Dispatcher.Limits(maxMessageSize: limit, maxDepth: 64, maxConcurrentRequests: 3),
        mapError: { _ in .internalError })
    let log = ReplyLog()
    var mustAnswer: [Int] = []
    for event in events {
        let slot = log.slot()
        switch event {
        case .message(let body):
            if String(validating: body, as: UTF8.self) == nil { mustAnswer.append(slot) }
            dispatcher.receive(body) { log.add(Data($0), to: slot) }
        case .error(let error):
            mustAnswer.append(slot)
            dispatcher.receive(framingError: error) { log.add(Data($0), to: slot) }
        }
    }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await dispatcher.waitUntilIdle()
        done.signal()
    }
    if done.wait(timeout: .now() + 20) == .timedOut { fatalError("dispatcher did not become idle within 20 s") }
    let replies = log.all
    for (slot, sent) in replies.enumerated() {
        if sent.count > 1 { fatalError("message \(slot) got \(sent.count) replies: \(sent.map(text))") }
        sent.forEach(checkReply)
        sent.forEach { checkBatchBudget($0, limit: limit) }
    }
    for slot in mustAnswer where replies[slot].count != 1 {
        fatalError("framing error or invalid UTF-8 (message \(slot)) got \(replies[slot].count) replies")
    }
}

/// A batch reply's results fill at most its budget (the message limit); errors may follow past it.
private func checkBatchBudget(_ data: Data, limit: Int) {
    let bytes = [UInt8](data)
    guard bytes.first == UInt8(ascii: "["),
        case .success(.array(let members)) = JSONStructureScanner.scan(bytes, maxDepth: 10_000)
    else { return }
    // Outside strings `,"result":` is structure: a raw quote inside a JSON string is always escaped.
    let resultMember = Array(#","result":"#.utf8)
    var size = 2
    for range in members {
        let member = Array(bytes[range])
        let isResult = (0...max(0, member.count - resultMember.count)).contains {
            member[$0...].starts(with: resultMember)
        }
        if isResult, size + range.count + 1 > limit {
            fatalError("batch result of \(range.count) bytes past the budget of \(limit): \(text(data))")
        }
        size += range.count + 1
    }
}

// MARK: JSONWriter against JSONEncoder

private struct Sample: Encodable, JSONWritable {
    var a: String
    var b: Int
    var c: Double
    var d: [Int]
    var e: [String]
    var f: String?

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("a", a)
            writer.member("b", b)
            writer.member("c", c)
            writer.member("d", d)
            writer.member("e", e)
            writer.member("f", f)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(a, forKey: .a)
        try container.encode(b, forKey: .b)
        try container.encode(c, forKey: .c)
        try container.encode(d, forKey: .d)
        try container.encode(e, forKey: .e)
        try container.encode(f, forKey: .f)  // null when absent, as JSONWriter writes it
    }

    private enum CodingKeys: String, CodingKey { case a, b, c, d, e, f }
}

private func checkWriter(_ bytes: [UInt8]) {
    guard bytes.count >= 8 else { return }
    let string = String(decoding: bytes.dropFirst(8), as: UTF8.self)
    let bits = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let double = Double(bitPattern: bits)
    guard double.isFinite else { return }  // JSONEncoder refuses non-finite doubles; JSONWriter writes null
    let int = Int(truncatingIfNeeded: bits)
    let words = string.split(separator: " ").map(String.init)
    let sample = Sample(a: string, b: int, c: double, d: bytes.prefix(6).map { Int($0) - 128 }, e: words,
                        f: words.first)
    var writer = JSONWriter()
    sample.write(to: &writer)
    guard let encoded = try? ResultEncoding.encode(sample) else { fatalError("JSONEncoder failed on \(sample)") }
    if writer.bytes != encoded {
        fatalError("JSONWriter \(text(Data(writer.bytes))) differs from JSONEncoder \(text(Data(encoded)))")
    }
    if writer.bytes.contains(0x0A) { fatalError("JSONWriter wrote a raw newline") }
}

// MARK: Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 2 else { return 0 }
    let limit = limits[Int(input[0]) % limits.count]
    let stream = Array(input.dropFirst(2))
    // Cut points from a small generator seeded by byte 1 and the stream (deterministic per input).
    var seed = UInt64(input[1]) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(stream.count)
    var cuts: [Int] = []
    var position = 0
    while position < stream.count && cuts.count < 64 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        position += 1 + Int((seed >> 33) % UInt64(max(1, min(stream.count, 97))))
        if position < stream.count { cuts.append(position) }
    }
    let lsp = checkFraming({ ContentLengthFraming(maxMessageSize: limit) }, stream, cuts: cuts, limit: limit,
                           newline: false)
    let lines = checkFraming({ NewlineFraming(maxMessageSize: limit) }, stream, cuts: cuts, limit: limit,
                             newline: true)
    let meaningful = stream.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    if meaningful.starts(with: Array("Content-Length:".utf8)), FramingDetector.detect(stream) != .contentLength {
        fatalError("a stream starting with a Content-Length header was not taken for LSP framing")
    }
    if let first = meaningful.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
        FramingDetector.detect(stream) != .newline
    {
        fatalError("a stream starting with JSON was not taken for newline framing")
    }
    dispatch(lsp, limit: limit)
    dispatch(lines, limit: limit)
    if input[0] & 0x80 != 0 { checkWriter(stream) }
    return 0
}
