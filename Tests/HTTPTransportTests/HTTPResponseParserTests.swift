import Foundation
import Testing

@testable import HTTPTransport

/// Feeds `input` whole, split at every byte position, and one byte at a time; every way must give the same
/// outcome. `endOfStream` then tells the parser the connection closed.
private func parse(
    _ input: String, isHead: Bool = false, endOfStream: Bool = false,
    maxHeaderBytes: Int = HTTPResponseParser.defaultMaxHeaderBytes,
    maxBodyBytes: Int = HTTPResponseParser.defaultMaxBodyBytes
) throws(HTTPTransportError) -> ParsedHTTPResponse? {
    let bytes = Array(input.utf8)
    func run(_ pieces: [ArraySlice<UInt8>]) throws(HTTPTransportError) -> ParsedHTTPResponse? {
        var parser = HTTPResponseParser(
            isHeadRequest: isHead, maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
        for piece in pieces {
            try parser.feed(Array(piece))
        }
        if endOfStream { try parser.finishAtEndOfStream() }
        return parser.response
    }
    func outcome(_ pieces: [ArraySlice<UInt8>]) -> Result<ParsedHTTPResponse?, HTTPTransportError> {
        do throws(HTTPTransportError) { return .success(try run(pieces)) } catch { return .failure(error) }
    }

    let whole = outcome([bytes[...]])
    for split in 0...bytes.count {
        let splitOutcome = outcome([bytes[..<split], bytes[split...]])
        #expect(splitOutcome == whole, "split at \(split)")
    }
    #expect(outcome(bytes.indices.map { bytes[$0...$0] }) == whole, "byte by byte")
    return try whole.get()
}

@Suite("HTTP response parser")
struct HTTPResponseParserTests {
    @Test("Content-Length body, headers case-insensitive and joined when repeated")
    func contentLength() throws {
        let response = try #require(try parse(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\nX-A: 1\r\nx-a: 2\r\n\r\n"
                + "{\"a\":1}"))
        #expect(response.statusCode == 200)
        #expect(response.body == Data("{\"a\":1}".utf8))
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.headers["X-A"] == "1, 2")
        #expect(response.connectionReusable)
    }

    @Test("a response is incomplete until its last body byte")
    func incompleteUntilLastByte() throws {
        #expect(try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabcd") == nil)
        #expect(throws: HTTPTransportError.offline(code: -1005)) {
            try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabcd", endOfStream: true)
        }
        #expect(throws: HTTPTransportError.offline(code: -1005)) {
            try parse("HTTP/1.1 200 OK\r\nContent-Le", endOfStream: true)
        }
    }

    @Test("chunked body with extensions and trailers")
    func chunked() throws {
        let input = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4;name=value\r\nWiki\r\n6\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\n"
        let response = try #require(try parse(input))
        #expect(String(decoding: response.body, as: UTF8.self) == "Wikipedia in \r\n\r\nchunks.")
        #expect(response.connectionReusable)
        #expect(try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n0\r\n") == nil)
    }

    @Test("a body without length runs to the end of the stream, and the connection is not reused")
    func closeDelimited() throws {
        #expect(try parse("HTTP/1.1 200 OK\r\n\r\nhello") == nil)
        let response = try #require(try parse("HTTP/1.1 200 OK\r\n\r\nhello", endOfStream: true))
        #expect(response.body == Data("hello".utf8))
        #expect(!response.connectionReusable)
    }

    @Test("no body for HEAD, 204 and 304, whatever the headers say")
    func bodiless() throws {
        let head = try #require(try parse("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", isHead: true))
        #expect(head.body.isEmpty && head.connectionReusable)
        #expect(try parse("HTTP/1.1 204 No Content\r\n\r\n")?.statusCode == 204)
        #expect(try parse("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n")?.body.isEmpty == true)
    }

    @Test("interim 100 Continue responses are skipped")
    func interimResponses() throws {
        let response = try #require(try parse(
            "HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok"))
        #expect(response.statusCode == 201 && response.body == Data("ok".utf8))
        #expect(response.headers["X-Interim"] == nil)
    }

    @Test("keep-alive follows the version and the Connection header")
    func keepAlive() throws {
        #expect(try parse("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")?.connectionReusable
            == false)
        #expect(try parse("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")?.connectionReusable == false)
        #expect(try parse("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n")?
            .connectionReusable == true)
        #expect(try parse("HTTP/1.0 200 OK\r\nConnection: foo, \tKEEP-ALIVE \r\nContent-Length: 0\r\n\r\n")?
            .connectionReusable == true)
        #expect(try parse("HTTP/1.1 200 OK\r\nConnection: keep-alive,Close\r\nContent-Length: 0\r\n\r\n")?
            .connectionReusable == false)
        // The Kelvin sign is not `k`: no keep-alive for HTTP/1.0.
        #expect(try parse("HTTP/1.0 200 OK\r\nConnection: \u{212A}eep-alive\r\nContent-Length: 0\r\n\r\n")?
            .connectionReusable == false)
    }

    @Test("bytes after a complete response make the connection unfit for reuse")
    func excessBytes() throws {
        let response = try #require(try parse("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1"))
        #expect(response.body == Data("x".utf8) && !response.connectionReusable)
    }

    @Test("bare line feeds are accepted as line ends")
    func bareLineFeeds() throws {
        #expect(try parse("HTTP/1.1 404 Not Found\nContent-Length: 2\n\nno")?.statusCode == 404)
    }

    @Test("malformed input is URLError.badServerResponse", arguments: [
        "HTTP/2 200 OK\r\n\r\n",
        "HTTP/1.1 20 OK\r\n\r\n",
        "HTTP/1.1 200OK\r\n\r\n",
        "ICY 200 OK\r\n\r\n",
        "HTTP/1.1 099 Low\r\n\r\n",
        "HTTP/1.1 101 Switching Protocols\r\n\r\n",
        "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nName : x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nA: 1\r\n folded\r\n\r\n",
        // A bare CR in a value (libFuzzer, Fuzz/http-corpus/found-bare-cr-in-value), a CR before the CRLF, a NUL.
        "HTTP/1.0 200 OK\r\nContent-Type: text/html\r?\n\r\nbye",
        "HTTP/1.1 200 OK\r\nX-A: 1\r\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-A: 1\u{0}2\r\nContent-Length: 0\r\n\r\n",
        // Unicode spaces are not OWS, and the Kelvin sign (U+212A) is not `k` (found writing the fuzzer's oracle).
        "HTTP/1.1 200 OK\r\nContent-Length: \u{A0}2\r\n\r\nab",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chun\u{212A}ed\r\n\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\u{3000}\r\n\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n folded-trailer\r\n\r\n",
    ])
    func malformed(input: String) {
        #expect(throws: HTTPTransportError.other(code: -1011)) { try parse(input, endOfStream: true) }
    }

    @Test("repeated Content-Length values that agree are one length")
    func agreeingContentLengths() throws {
        #expect(try parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab")?.body.count == 2)
    }

    @Test("a header block or body over its limit is URLError.dataLengthExceedsMaximum")
    func limits() throws {
        let tooLarge = HTTPTransportError.other(code: -1103)
        #expect(throws: tooLarge) {
            try parse("HTTP/1.1 200 OK\r\nX-Long: \(String(repeating: "a", count: 100))\r\n\r\n", maxHeaderBytes: 64)
        }
        #expect(throws: tooLarge) { try parse("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", maxBodyBytes: 10) }
        #expect(throws: tooLarge) {
            try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n", maxBodyBytes: 10)
        }
        #expect(throws: tooLarge) {
            try parse("HTTP/1.1 200 OK\r\n\r\n\(String(repeating: "b", count: 11))", maxBodyBytes: 10)
        }
        #expect(throws: tooLarge) {
            try parse("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n")
        }
        #expect(throws: tooLarge) {
            try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n")
        }
        let atTheLimit = try parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", maxBodyBytes: 10)
        #expect(atTheLimit?.body.count == 10)
    }

    @Test("strict number rules")
    func numbers() throws {
        #expect(try HTTPResponseParser.contentLength("0") == 0)
        #expect(try HTTPResponseParser.contentLength("42, 42") == 42)
        #expect(try HTTPResponseParser.contentLength("\t7 ") == 7)
        #expect(throws: HTTPTransportError.other(code: -1011)) { try HTTPResponseParser.contentLength("\u{A0}7") }
        #expect(HTTPResponseParser.isChunked(" Chunked\t") && !HTTPResponseParser.isChunked("chun\u{212A}ed"))
        #expect(throws: HTTPTransportError.other(code: -1011)) { try HTTPResponseParser.contentLength("42, 43") }
        #expect(try HTTPResponseParser.chunkSize(Array("1aF".utf8)) == 0x1af)
        #expect(try HTTPResponseParser.chunkSize(Array("10 ; ext=1".utf8)) == 16)
        #expect(throws: HTTPTransportError.other(code: -1011)) { try HTTPResponseParser.chunkSize(Array("-1".utf8)) }
        #expect(throws: HTTPTransportError.other(code: -1011)) { try HTTPResponseParser.chunkSize(Array("0x10".utf8)) }
    }
}
