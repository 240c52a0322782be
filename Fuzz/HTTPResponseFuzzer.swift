// A libFuzzer target for HTTPResponseParser, which reads untrusted bytes from TMDB, Firebase or a proxy.
//
// Built by scripts/fuzz.sh with `swiftc -sanitize=fuzzer,address -parse-as-library` on this file plus the
// parser, HTTPTransportError and the redirect sources (RedirectPolicy, RedirectRule, AddressClass, HTTPOrigin
// and the request/response types) as one module (no SwiftPM). Any violated invariant traps with
// `fatalError`, which libFuzzer reports as a crash and saves as a reproducer.
//
// Input layout: byte 0 picks the options (bit 0: HEAD request, bit 1: CONNECT request, bits 2-3: header
// limit, bits 4-5: body limit; 0 is a plain GET with the default limits), byte 1 seeds the chunking,
// bytes 2... are what the server sent. Each input is fed whole, in input-derived chunks and (up to 4 KiB)
// byte by byte, each time followed by `finishAtEndOfStream()`; feeding stops at the first error, as the
// client closes the connection then.
//
// Invariants:
//  1. Chunking: the outcome does not depend on how the stream is chunked (no exception): the response (or
//     nil) after the last byte, the error thrown, `hasExcessBytes`, and what `finishAtEndOfStream()` gives.
//  2. State: `isComplete` is `response != nil`; once complete, status, headers and body never change;
//     `hasReceivedBytes` is true after any byte was fed (also when that feed threw); `feed` throws only
//     badServerResponse or dataLengthExceedsMaximum, `finishAtEndOfStream()` only networkConnectionLost,
//     and after it returns the response is complete (nothing is left undecided).
//  3. A complete response: status in 200...999 (1xx are interim and skipped); a body no larger than the
//     stream and than the body limit, and empty for HEAD, 204, 304 and a 2xx answer to CONNECT; header
//     names are non-empty RFC 9110 tokens, unique ignoring case; values hold no CR, LF or NUL and no
//     whitespace at either end (except the space of a ", " that joined an empty repeated field).
//  4. Framing: a body framed by Content-Length has exactly that many bytes, and the value is only ASCII
//     digits (a list of equal ones, OWS around); one framed by Transfer-Encoding says exactly `chunked`
//     (ASCII, any case, OWS around); a response with neither completes only at the end of the stream.
//  5. Reuse: a connection is not reusable after a body that ran to the end of the stream or when bytes
//     followed the response.
//  6. Redirects: a complete 3xx with a Location, answering an image download from a public https host under
//     `RedirectRule.sameHost(or: ["cdn.example"])`, is followed only to https, only to that host or
//     cdn.example, never to an IP literal or name of a non-public place (loopback, private, link-local,
//     metadata), and without `Authorization` to another host; classifying any Location's host never traps.

import Foundation

private let headerLimits = [HTTPResponseParser.defaultMaxHeaderBytes, 256, 64, 20]
private let bodyLimits = [HTTPResponseParser.defaultMaxBodyBytes, 1024, 16, 0]
private let byteByByteLimit = 4096

private struct Options {
    var isHeadRequest: Bool
    var isConnectRequest: Bool
    var maxHeaderBytes: Int
    var maxBodyBytes: Int

    init(_ byte: UInt8) {
        isHeadRequest = byte & 1 != 0
        isConnectRequest = byte & 2 != 0
        maxHeaderBytes = headerLimits[Int(byte >> 2) & 3]
        maxBodyBytes = bodyLimits[Int(byte >> 4) & 3]
    }

    func makeParser() -> HTTPResponseParser {
        HTTPResponseParser(
            isHeadRequest: isHeadRequest, isConnectRequest: isConnectRequest, maxHeaderBytes: maxHeaderBytes,
            maxBodyBytes: maxBodyBytes)
    }
}

private let badServerResponse = HTTPTransportError(.badServerResponse)
private let tooLarge = HTTPTransportError(.dataLengthExceedsMaximum)
private let connectionLost = HTTPTransportError(.networkConnectionLost)

/// Everything a caller can observe, compared across chunkings.
private struct Outcome: Equatable {
    /// The response right after the last byte (nil: incomplete, or feeding threw).
    var responseBeforeEnd: ParsedHTTPResponse?
    var feedError: HTTPTransportError?
    var hasExcessBytes: Bool
    /// After `finishAtEndOfStream()`; the feed error when feeding threw.
    var final: Result<ParsedHTTPResponse, HTTPTransportError>
}

private func sameMessage(_ a: ParsedHTTPResponse, _ b: ParsedHTTPResponse) -> Bool {
    a.statusCode == b.statusCode && a.headers == b.headers && a.body == b.body
}

private func run(_ stream: [UInt8], cuts: [Int], options: Options) -> Outcome {
    var parser = options.makeParser()
    var fedAny = false
    var completed: ParsedHTTPResponse?
    var start = 0
    for cut in cuts + [stream.count] where cut >= start {
        let piece = Array(stream[start..<cut])
        start = cut
        do throws(HTTPTransportError) {
            try parser.feed(piece)
        } catch {
            if error != badServerResponse && error != tooLarge {
                fatalError("feed threw \(error), neither badServerResponse nor dataLengthExceedsMaximum")
            }
            if !piece.isEmpty && !parser.hasReceivedBytes { fatalError("hasReceivedBytes false after a failed feed") }
            return Outcome(responseBeforeEnd: nil, feedError: error, hasExcessBytes: parser.hasExcessBytes,
                           final: .failure(error))
        }
        fedAny = fedAny || !piece.isEmpty
        if parser.hasReceivedBytes != fedAny { fatalError("hasReceivedBytes is \(parser.hasReceivedBytes)") }
        checkState(parser, completed: &completed)
    }
    let beforeEnd = parser.response
    let excess = parser.hasExcessBytes
    let final: Result<ParsedHTTPResponse, HTTPTransportError>
    do throws(HTTPTransportError) {
        try parser.finishAtEndOfStream()
        checkState(parser, completed: &completed)
        guard let response = parser.response else {
            fatalError("finishAtEndOfStream() returned but the response is not complete")
        }
        final = .success(response)
    } catch {
        if error != connectionLost { fatalError("finishAtEndOfStream() threw \(error), not networkConnectionLost") }
        if beforeEnd != nil { fatalError("finishAtEndOfStream() threw after the response was complete") }
        final = .failure(error)
    }
    return Outcome(responseBeforeEnd: beforeEnd, feedError: nil, hasExcessBytes: excess, final: final)
}

private func checkState(_ parser: HTTPResponseParser, completed: inout ParsedHTTPResponse?) {
    let response = parser.response
    if parser.isComplete != (response != nil) { fatalError("isComplete disagrees with response") }
    if let earlier = completed {
        guard let response, sameMessage(earlier, response) else {
            fatalError("a complete response changed: \(earlier) became \(String(describing: response))")
        }
    }
    completed = response
}

// MARK: The complete response

private func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}

private func isOptionalWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

private func trimmedOWS(_ bytes: some Collection<UInt8>) -> [UInt8] {
    Array(bytes.drop(while: isOptionalWhitespace).reversed().drop(while: isOptionalWhitespace).reversed())
}

/// The value of ASCII digits, nil when it overflows.
private func decimalValue(_ digits: [UInt8]) -> Int? {
    var value = 0
    for digit in digits {
        let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
        guard !overflow, times10 <= Int.max - Int(digit - 0x30) else { return nil }
        value = times10 + Int(digit - 0x30)
    }
    return value
}

/// The value of a header, looked up ignoring ASCII case.
private func header(_ name: String, in response: ParsedHTTPResponse) -> String? {
    response.headers.first { $0.key.lowercased() == name }?.value
}

private func checkResponse(_ response: ParsedHTTPResponse, completedBeforeEnd: Bool, hasExcessBytes: Bool,
                           stream: [UInt8], options: Options) {
    let status = response.statusCode
    guard (200...999).contains(status) else { fatalError("complete response with status \(status)") }
    if response.body.count > stream.count { fatalError("body of \(response.body.count) bytes from a shorter stream") }
    if response.body.count > options.maxBodyBytes {
        fatalError("body of \(response.body.count) bytes passed the limit of \(options.maxBodyBytes)")
    }
    var lowercasedNames = Set<String>()
    for (name, value) in response.headers {
        let nameBytes = Array(name.utf8)
        if nameBytes.isEmpty || !nameBytes.allSatisfy(isTokenCharacter) { fatalError("header name \(nameBytes)") }
        if !lowercasedNames.insert(name.lowercased()).inserted { fatalError("header \(name) appears twice") }
        let valueBytes = Array(value.utf8)
        if valueBytes.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
            fatalError("header \(name) holds CR, LF or NUL: \(valueBytes)")
        }
        // Repeated fields are joined with ", ", so an empty repeat leaves a trailing space; nothing else may.
        let joinedEmpty = valueBytes.count >= 2 && valueBytes.suffix(2).elementsEqual(", ".utf8)
        if trimmedOWS(valueBytes) != valueBytes && !(joinedEmpty && trimmedOWS(valueBytes) == valueBytes.dropLast()) {
            fatalError("header \(name) has whitespace at an end: \(value)")
        }
    }
    let bodiless = options.isHeadRequest || status == 204 || status == 304
        || (options.isConnectRequest && (200..<300).contains(status))
    if bodiless {
        if !response.body.isEmpty { fatalError("status \(status) (HEAD \(options.isHeadRequest)) with a body") }
    } else if let transferEncoding = header("transfer-encoding", in: response) {
        let coding = trimmedOWS(transferEncoding.utf8).map { $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }
        if coding != Array("chunked".utf8) { fatalError("body framed by Transfer-Encoding \(transferEncoding)") }
        if header("content-length", in: response) != nil { fatalError("both Content-Length and Transfer-Encoding") }
    } else if let contentLength = header("content-length", in: response) {
        for part in contentLength.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let digits = trimmedOWS(part)
            guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                  decimalValue(digits) == response.body.count
            else { fatalError("Content-Length \(contentLength) framed a body of \(response.body.count) bytes") }
        }
    } else if completedBeforeEnd {
        fatalError("a response without Content-Length or Transfer-Encoding completed before the end of the stream")
    }
    if !completedBeforeEnd && response.connectionReusable {
        fatalError("a body that ran to the end of the stream left the connection reusable")
    }
    if hasExcessBytes && response.connectionReusable { fatalError("bytes followed the response, yet reusable") }
}

// MARK: Redirects

private let imageRequest = HTTPRequest(
    // safe: a constant URL that parses.
    url: URL(string: "https://image.tmdb.org/t/p/w92/a.jpg")!, headers: ["Authorization": "Bearer x"],
    redirects: .sameHost(or: ["cdn.example"]))

private func checkRedirect(_ parsed: ParsedHTTPResponse) {
    let response = HTTPResponse(statusCode: parsed.statusCode, headers: parsed.headers, body: parsed.body)
    if let location = response.value(forHeader: "Location"),
       let host = URL(string: location, relativeTo: imageRequest.url)?.host {
        _ = AddressClass.literal(host)
    }
    guard let next = RedirectPolicy.nextRequest(after: response, to: imageRequest),
          RedirectPolicy.allows(
              next.url, by: imageRequest.redirects, from: imageRequest.url, startedAt: .publicInternet)
    else { return }
    guard let origin = try? HTTPOrigin(url: next.url) else { fatalError("followed to an unusable URL \(next.url)") }
    if origin.scheme != .https { fatalError("followed from https to \(next.url)") }
    let host = RedirectRule.normalized(origin.host)
    if host != "image.tmdb.org" && host != "cdn.example" { fatalError("followed to \(origin.host)") }
    if let literal = AddressClass.literal(origin.host), !literal.isPublic {
        fatalError("followed to \(origin.host), a \(literal) address")
    }
    if host != "image.tmdb.org" && next.value(forHeader: "Authorization") != nil {
        fatalError("Authorization sent on to \(origin.host)")
    }
}

// MARK: Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 2 else { return 0 }
    let options = Options(input[0])
    let stream = Array(input.dropFirst(2))
    // Cut points from a small generator seeded by byte 1 and the stream (deterministic per input); a cut may
    // repeat, which feeds an empty piece.
    var seed = UInt64(input[1]) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(stream.count)
    var cuts: [Int] = []
    var position = 0
    while position < stream.count && cuts.count < 64 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        position += Int((seed >> 33) % UInt64(max(1, min(stream.count, 97))))
        if position < stream.count { cuts.append(position) }
    }
    let whole = run(stream, cuts: [], options: options)
    let chunked = run(stream, cuts: cuts, options: options)
    let oneByOne = stream.count <= byteByByteLimit ? run(stream, cuts: Array(0..<stream.count), options: options)
        : chunked
    if whole != chunked || whole != oneByOne {
        fatalError("""
            the outcome depends on chunking: whole \(whole) vs chunked at \(cuts) \(chunked) \
            vs byte by byte \(oneByOne)
            """)
    }
    if case .success(let response) = whole.final {
        checkResponse(response, completedBeforeEnd: whole.responseBeforeEnd != nil,
                      hasExcessBytes: whole.hasExcessBytes, stream: stream, options: options)
        checkRedirect(response)
    }
    return 0
}
