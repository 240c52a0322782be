#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An HTTP/1.x response as read from a connection.
struct ParsedHTTPResponse: Sendable, Equatable {
    var statusCode: Int
    /// Header names as first received; repeated names joined with ", ".
    var headers: [String: String]
    var body: Data
    /// Whether the connection may carry another request: HTTP/1.1 without `Connection: close`, or HTTP/1.0
    /// with `Connection: keep-alive`, and a body whose end was known without closing the connection.
    var connectionReusable: Bool
}

/// A pure HTTP/1.x response parser, fed bytes as they arrive from the connection.
///
/// Frames the body by `Content-Length`, by `Transfer-Encoding: chunked` (trailers read and dropped), or
/// by the end of the stream; HEAD responses, 1xx, 204 and 304 have none. Interim 1xx responses
/// (`100 Continue`) are skipped. Anything malformed throws ``HTTPTransportError/other(code:)`` with
/// `HTTPTransportError.Code.badServerResponse`; a header block or body over its limit throws `dataLengthExceedsMaximum`.
struct HTTPResponseParser {
    static let defaultMaxHeaderBytes = 64 << 10
    static let defaultMaxBodyBytes = 64 << 20

    private enum State {
        case statusLine
        case headerLines
        case fixedBody(remaining: Int)
        case chunkSizeLine
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailerLines
        case bodyUntilClose
        case complete
    }

    private let isHeadRequest: Bool
    private let isConnectRequest: Bool
    private let maxHeaderBytes: Int
    private let maxBodyBytes: Int

    private var state = State.statusLine
    /// The bytes of the line being read (without its line feed).
    private var line: [UInt8] = []
    /// Bytes of status line, header lines and trailer lines so far, against `maxHeaderBytes`.
    private var headerBytes = 0
    private var statusCode = 0
    private var minorVersion = 1
    /// Lowercased name → (name as first received, value).
    private var headerFields: [String: (name: String, value: String)] = [:]
    private var body = Data()

    /// Whether any byte has been fed; a reused connection that fails before this may be retried.
    private(set) var hasReceivedBytes = false
    /// Bytes fed after the response was complete (the connection is then out of step and not reusable).
    private(set) var hasExcessBytes = false

    /// - Parameters:
    ///   - isHeadRequest: the request was `HEAD`, so no body follows whatever the headers say.
    ///   - isConnectRequest: the request was a proxy `CONNECT`; a 2xx answer ends at its header block.
    init(
        isHeadRequest: Bool = false, isConnectRequest: Bool = false,
        maxHeaderBytes: Int = defaultMaxHeaderBytes, maxBodyBytes: Int = defaultMaxBodyBytes
    ) {
        self.isHeadRequest = isHeadRequest
        self.isConnectRequest = isConnectRequest
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// The response, once its last byte has been fed (or ``finishAtEndOfStream()`` ended it).
    var response: ParsedHTTPResponse? {
        guard case .complete = state else { return nil }
        return ParsedHTTPResponse(
            statusCode: statusCode, headers: headers, body: body, connectionReusable: connectionReusable)
    }

    var isComplete: Bool {
        if case .complete = state { return true }
        return false
    }

    /// Feeds bytes read from the connection.
    mutating func feed(_ bytes: [UInt8]) throws(HTTPTransportError) {
        var failure: HTTPTransportError?
        bytes.withUnsafeBytes { buffer in
            do throws(HTTPTransportError) {
                try feed(buffer)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Feeds bytes read from the connection.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(HTTPTransportError) {
        guard !bytes.isEmpty else { return }
        hasReceivedBytes = true
        var index = 0
        while index < bytes.count {
            switch state {
            case .statusLine, .headerLines, .chunkSizeLine, .chunkDataEnd, .trailerLines:
                guard let lineEnd = try appendLine(from: bytes, at: index) else { return }
                index = lineEnd
                try finishLine()
            case .fixedBody(let remaining):
                let count = min(remaining, bytes.count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                index += count
                state = remaining == count ? .complete : .fixedBody(remaining: remaining - count)
            case .chunkData(let remaining):
                let count = min(remaining, bytes.count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                index += count
                state = remaining == count ? .chunkDataEnd : .chunkData(remaining: remaining - count)
            case .bodyUntilClose:
                let count = bytes.count - index
                guard body.count + count <= maxBodyBytes else { throw Self.tooLarge }
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index...]))
                index += count
            case .complete:
                hasExcessBytes = true
                return
            }
        }
    }

    /// The connection reached its end: completes a body read until close, else the response is cut short.
    mutating func finishAtEndOfStream() throws(HTTPTransportError) {
        switch state {
        case .complete:
            return
        case .bodyUntilClose:
            state = .complete
        default:
            throw HTTPTransportError(.networkConnectionLost)
        }
    }

    // MARK: Lines

    /// Appends bytes up to the next line feed to `line`; returns the index after the line feed, or nil when
    /// the input ended first.
    private mutating func appendLine(from bytes: UnsafeRawBufferPointer, at start: Int) throws(HTTPTransportError)
        -> Int?
    {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            headerBytes += 1
            guard headerBytes <= maxHeaderBytes else { throw Self.tooLarge }
            if byte == UInt8(ascii: "\n") {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return index
            }
            line.append(byte)
        }
        return nil
    }

    private mutating func finishLine() throws(HTTPTransportError) {
        defer { line.removeAll(keepingCapacity: true) }
        switch state {
        case .statusLine:
            try parseStatusLine()
            state = .headerLines
        case .headerLines:
            if line.isEmpty {
                try endOfHeaders()
            } else {
                try parseHeaderLine()
            }
        case .chunkSizeLine:
            let size = try Self.chunkSize(line)
            guard body.count + size <= maxBodyBytes else { throw Self.tooLarge }
            state = size == 0 ? .trailerLines : .chunkData(remaining: size)
        case .chunkDataEnd:
            guard line.isEmpty else { throw Self.malformed }
            state = .chunkSizeLine
        case .trailerLines:
            // Trailers carry nothing this client uses; a fold or a stray byte is still malformed.
            if line.isEmpty {
                state = .complete
            } else if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t")
                || !line.contains(UInt8(ascii: ":"))
            {
                throw Self.malformed
            }
        default:
            throw Self.malformed
        }
    }

    /// `HTTP/1.x SP 3DIGIT [SP reason]`.
    private mutating func parseStatusLine() throws(HTTPTransportError) {
        let prefix = Array("HTTP/1.".utf8)
        guard line.count >= 12, line.starts(with: prefix), Self.isDigit(line[7]), line[8] == UInt8(ascii: " "),
              line[9...11].allSatisfy(Self.isDigit), line.count == 12 || line[12] == UInt8(ascii: " ")
        else { throw Self.malformed }
        minorVersion = Int(line[7] - UInt8(ascii: "0"))
        statusCode = line[9...11].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard statusCode >= 100 else { throw Self.malformed }
    }

    /// `name: value`; whitespace before the colon, obsolete line folding and CR or NUL in the value are
    /// rejected.
    private mutating func parseHeaderLine() throws(HTTPTransportError) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              line[..<colon].allSatisfy(Self.isTokenCharacter)
        else { throw Self.malformed }
        guard let name = String(validating: line[..<colon], as: UTF8.self) else { throw Self.malformed }
        let valueBytes = Self.trimmed(line[(colon + 1)...])
        // RFC 9110 §5.5: a CR or NUL in a value (a bare CR, as the line feed ends the line) must be rejected or
        // replaced; passed on, it would reach whoever logs or forwards the header.
        guard !valueBytes.contains(where: { $0 == UInt8(ascii: "\r") || $0 == 0 }) else { throw Self.malformed }
        // A value that is not UTF-8 keeps its readable part (U+FFFD for the rest) rather than failing the response.
        let value = String(decoding: valueBytes, as: UTF8.self)
        let key = name.lowercased()
        if let existing = headerFields[key] {
            headerFields[key] = (existing.name, existing.value + ", " + value)
        } else {
            headerFields[key] = (name, value)
        }
    }

    private mutating func endOfHeaders() throws(HTTPTransportError) {
        if (100..<200).contains(statusCode) {
            // 101 would hand the connection to another protocol, which was never asked for.
            guard statusCode != 101 else { throw Self.malformed }
            headerFields = [:]
            state = .statusLine
            return
        }
        let transferEncoding = headerFields["transfer-encoding"]?.value
        let contentLength = try headerFields["content-length"].map { field throws(HTTPTransportError) in
            try Self.contentLength(field.value)
        }
        if isHeadRequest || statusCode == 204 || statusCode == 304
            || (isConnectRequest && (200..<300).contains(statusCode))
        {
            state = .complete
            return
        }
        if let transferEncoding {
            // Both at once is how requests get smuggled; this client never asks for another coding.
            guard contentLength == nil, Self.isChunked(transferEncoding) else { throw Self.malformed }
            state = .chunkSizeLine
        } else if let contentLength {
            guard contentLength <= maxBodyBytes else { throw Self.tooLarge }
            state = contentLength == 0 ? .complete : .fixedBody(remaining: contentLength)
        } else {
            state = .bodyUntilClose
        }
    }

    // MARK: Results

    private var headers: [String: String] {
        var headers: [String: String] = [:]
        for field in headerFields.values {
            headers[field.name] = field.value
        }
        return headers
    }

    private var connectionReusable: Bool {
        let tokens = (headerFields["connection"]?.value ?? "").utf8.split(separator: UInt8(ascii: ","))
            .map { Self.asciiLowercased(Self.trimmed(ArraySlice($0))) }
        let persistent = minorVersion >= 1 ? !tokens.contains(Array("close".utf8))
            : tokens.contains(Array("keep-alive".utf8))
        return persistent && !hasExcessBytes && !closeDelimited
    }

    /// Whether the body ran to the end of the stream (no length was known).
    private var closeDelimited: Bool {
        !isHeadRequest && statusCode != 204 && statusCode != 304 && headerFields["transfer-encoding"] == nil
            && headerFields["content-length"] == nil
    }

    // MARK: Number and character rules
    //
    // Values are compared as bytes: OWS is only space and tab (Foundation's `.whitespaces` also strips
    // U+00A0 and other Unicode spaces), and case is ASCII case (String comparison and `lowercased()` would
    // let the Kelvin sign U+212A stand for `k`, as in `chun\u{212A}ed`).

    private static let malformed = HTTPTransportError(.badServerResponse)
    private static let tooLarge = HTTPTransportError(.dataLengthExceedsMaximum)

    /// Decimal digits only, with spaces or tabs around; repeated values (joined with ", ") must agree.
    static func contentLength(_ raw: String) throws(HTTPTransportError) -> Int {
        var agreed: Int?
        for part in raw.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let digits = trimmed(ArraySlice(part))
            guard !digits.isEmpty, digits.allSatisfy(isDigit) else { throw malformed }
            var value = 0
            for digit in digits {
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { throw tooLarge }
                value = sum
            }
            guard agreed == nil || agreed == value else { throw malformed }
            agreed = value
        }
        guard let agreed else { throw malformed }
        return agreed
    }

    /// A chunk-size line: hexadecimal digits, optionally followed by `;extensions` (ignored).
    static func chunkSize(_ line: [UInt8]) throws(HTTPTransportError) -> Int {
        let end = line.firstIndex(of: UInt8(ascii: ";")) ?? line.endIndex
        let digits = trimmed(line[..<end])
        guard !digits.isEmpty else { throw malformed }
        var value = 0
        for byte in digits {
            guard let digit = hexValue(byte) else { throw malformed }
            guard value <= (Int.max - digit) / 16 else { throw tooLarge }
            value = value * 16 + digit
        }
        return value
    }

    /// `chunked` in any ASCII case, with spaces or tabs around.
    static func isChunked(_ transferEncoding: String) -> Bool {
        asciiLowercased(trimmed(ArraySlice(transferEncoding.utf8))) == Array("chunked".utf8)
    }

    private static func asciiLowercased(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            slice.removeFirst()
        }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            slice.removeLast()
        }
        return slice
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            // Scanned in place: building the set as an array cost an allocation per byte of every header name.
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
