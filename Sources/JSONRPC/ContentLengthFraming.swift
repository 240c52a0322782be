/// LSP base-protocol framing: `Content-Length: N\r\n` (name case-insensitive), other headers ignored,
/// a blank line, then N bytes of body.
///
/// A length over the limit is a too-large message: its body is skipped when the length is plausible (at
/// most `maxSkippedLength`); an absurd one (beyond that, or too long to represent) is answered the same way but the
/// parser resynchronises at the next `Content-Length` header instead of waiting for bytes that never come.
/// Two `Content-Length` headers that disagree make the header block unusable (a request-smuggling shape).
public struct ContentLengthFraming: MessageFraming {
    private enum State: Sendable {
        case header
        case body(length: Int)
        /// Discarding the body of an oversized message.
        case skipping(remaining: Int)
        /// After a broken header block: looking for the next `Content-Length`.
        case resynchronising
    }

    public let maxMessageSize: Int
    /// A header block longer than this without its blank line is not a header block.
    public let maxHeaderSize = 8 * 1024
    /// The longest oversized body that is skipped byte by byte; longer declared lengths resynchronise.
    public var maxSkippedLength: Int {
        maxMessageSize.multipliedReportingOverflow(by: 4).overflow ? Int.max : maxMessageSize * 4
    }
    private var buffer = ByteBuffer()
    private var state = State.header

    public var name: String { "content-length" }

    public init(maxMessageSize: Int = 16 * 1024 * 1024) {
        self.maxMessageSize = maxMessageSize
    }

    public var bufferedByteCount: Int { buffer.count }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(bytes)
    }

    public mutating func next() -> FrameEvent? {
        while true {
            switch state {
            case .skipping(let remaining):
                let dropped = min(remaining, buffer.count)
                buffer.consume(dropped)
                if dropped < remaining {
                    state = .skipping(remaining: remaining - dropped)
                    return nil
                }
                state = .header
            case .resynchronising:
                if let offset = Self.findHeaderName(in: buffer) {
                    buffer.consume(offset)
                    state = .header
                } else {
                    // Keep a tail that may be the start of a split header name.
                    buffer.consume(max(0, buffer.count - Self.headerName.count))
                    return nil
                }
            case .body(let length):
                guard buffer.count >= length else { return nil }
                let body = buffer.bytes(0..<length)
                buffer.consume(length)
                state = .header
                return .message(body)
            case .header:
                // Blank lines between messages are tolerated.
                while !buffer.isEmpty, buffer[0] == UInt8(ascii: "\r") || buffer[0] == UInt8(ascii: "\n") {
                    buffer.consume(1)
                }
                guard !buffer.isEmpty else { return nil }
                guard let end = buffer.firstIndex(of: Self.headerTerminator) else {
                    if buffer.count > maxHeaderSize {
                        state = .resynchronising
                        buffer.consume(1)
                        return .error(.invalidHeader("Header block exceeds \(maxHeaderSize) bytes"))
                    }
                    return nil
                }
                let header = buffer.bytes(0..<end)
                buffer.consume(end + Self.headerTerminator.count)
                switch Self.contentLength(in: header) {
                case .failure(let error):
                    state = .resynchronising
                    return .error(error)
                case .success(let length) where length > maxSkippedLength:
                    state = .resynchronising
                    return .error(.messageTooLarge(size: length, limit: maxMessageSize))
                case .success(let length) where length > maxMessageSize:
                    state = .skipping(remaining: length)
                    return .error(.messageTooLarge(size: length, limit: maxMessageSize))
                case .success(let length):
                    state = .body(length: length)
                }
            }
        }
    }

    public mutating func finish() -> FrameEvent? {
        next()
    }

    public static func envelope(ofBodyCount count: Int) -> FrameEnvelope {
        FrameEnvelope(header: Array("Content-Length: \(count)\r\n\r\n".utf8))
    }

    private static let headerTerminator: [UInt8] = Array("\r\n\r\n".utf8)
    private static let headerName: [UInt8] = Array("content-length".utf8)

    /// The declared body length, or why the header block is unusable.
    static func contentLength(in header: [UInt8]) -> Result<Int, FramingError> {
        guard let text = String(validating: header, as: UTF8.self) else {
            return .failure(.invalidHeader("Header is not valid UTF-8"))
        }
        var length: Int?
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(.invalidHeader("Malformed header line"))
            }
            let name = line[..<colon].trimmingSpaces().lowercased()
            guard name == "content-length" else { continue }
            let value = line[line.index(after: colon)...].trimmingSpaces()
            // Digits only: no sign, no spaces inside, no hex. Very long digit strings are too large.
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                return .failure(.invalidHeader("Content-Length is not a non-negative integer"))
            }
            let declared = Int(value) ?? Int.max
            if let earlier = length, earlier != declared {
                return .failure(.invalidHeader("Conflicting Content-Length headers"))
            }
            length = declared
        }
        guard let length else { return .failure(.invalidHeader("Missing Content-Length header")) }
        return .success(length)
    }

    /// Offset of the next `Content-Length` header name (case-insensitive), wherever it is: after a broken
    /// header block comes a body of unknown length, and the next header follows its last byte directly
    /// (bodies rarely end in a newline). Matching only at line starts would lose every later message.
    private static func findHeaderName(in buffer: ByteBuffer) -> Int? {
        let n = headerName.count
        guard buffer.count >= n else { return nil }
        var index = 0
        while index <= buffer.count - n {
            var matched = true
            for k in 0..<n where buffer[index + k] | 0x20 != headerName[k] {
                matched = false
                break
            }
            if matched { return index }
            index += 1
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
