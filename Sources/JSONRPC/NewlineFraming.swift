/// Newline-delimited JSON: one message per line (`\n`, with an optional `\r` before it). Blank lines are
/// skipped. Outgoing messages never contain a raw newline, because encoded JSON escapes them in strings.
public struct NewlineFraming: MessageFraming {
    public let maxMessageSize: Int
    private var buffer = ByteBuffer()
    /// How far the current line has been searched for a newline already.
    private var scanned = 0
    /// Inside an oversized line: drop bytes until its newline.
    private var discarding = false

    public var name: String { "newline" }

    public init(maxMessageSize: Int = 16 * 1024 * 1024) {
        self.maxMessageSize = maxMessageSize
    }

    public var bufferedByteCount: Int { buffer.count }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(bytes)
    }

    public mutating func next() -> FrameEvent? {
        while true {
            guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n"), from: scanned) else {
                scanned = buffer.count
                if discarding {
                    buffer.consume(buffer.count)
                    scanned = 0
                } else if buffer.count - Self.pendingCarriageReturn(buffer) > maxMessageSize {
                    let size = buffer.count
                    buffer.consume(buffer.count)
                    scanned = 0
                    discarding = true
                    return .error(.messageTooLarge(size: size, limit: maxMessageSize))
                }
                return nil
            }
            scanned = 0
            if discarding {
                buffer.consume(newline + 1)
                discarding = false
                continue
            }
            var end = newline
            if end > 0 && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end > maxMessageSize {
                buffer.consume(newline + 1)
                return .error(.messageTooLarge(size: end, limit: maxMessageSize))
            }
            let line = buffer.bytes(0..<end)
            buffer.consume(newline + 1)
            if line.allSatisfy(Self.isWhitespace) { continue }
            return .message(line)
        }
    }

    public mutating func finish() -> FrameEvent? {
        if let event = next() { return event }
        guard !discarding, !buffer.isEmpty else { return nil }
        // A last line without its newline (e.g. `printf '{...}' | movie-rpc`) still counts. A final `\r` is
        // taken as its line ending, as in `\r\n`: `next()` did not count it against the limit either.
        let end = buffer.count - Self.pendingCarriageReturn(buffer)
        let line = buffer.bytes(0..<end)
        buffer.consume(buffer.count)
        scanned = 0
        return line.allSatisfy(Self.isWhitespace) ? nil : .message(line)
    }

    public static func envelope(ofBodyCount count: Int) -> FrameEnvelope { lineEnd }

    private static let lineEnd = FrameEnvelope(trailer: [UInt8(ascii: "\n")])

    /// 1 when the buffer ends in `\r`, which may be the start of the line's `\r\n` and so is not counted
    /// against the limit (a complete line does not count it either).
    private static func pendingCarriageReturn(_ buffer: ByteBuffer) -> Int {
        !buffer.isEmpty && buffer[buffer.count - 1] == UInt8(ascii: "\r") ? 1 : 0
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
