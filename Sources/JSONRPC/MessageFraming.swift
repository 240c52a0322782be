#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One thing a framing parser found in the byte stream.
public enum FrameEvent: Equatable, Sendable {
    /// A complete message body.
    case message([UInt8])
    /// Bytes that could not be framed; the parser has already resynchronised past them.
    case error(FramingError)
}

/// What went wrong while framing. Each of these is answered with an error and then skipped.
public enum FramingError: Error, Equatable, Sendable {
    /// A message (or its declared length) exceeds the configured limit.
    case messageTooLarge(size: Int, limit: Int)
    /// An LSP-style header block without a usable `Content-Length`.
    case invalidHeader(String)
}

/// A pure parser from bytes to messages: fed arbitrary chunks, it yields whole messages.
///
/// Implementations never block and never look at anything but the bytes given, so they are tested by
/// feeding messages split at every byte.
public protocol MessageFraming: Sendable {
    /// Adds bytes read from the stream.
    mutating func append(_ bytes: UnsafeRawBufferPointer)
    /// The next complete message or framing error, or nil when more bytes are needed.
    mutating func next() -> FrameEvent?
    /// Called at end of stream: whatever complete message is left, or nil.
    mutating func finish() -> FrameEvent?
    /// Bytes appended and not yet taken by `next()`: what the buffer holds.
    var bufferedByteCount: Int { get }
    /// The bytes written before and after an outgoing message body of `count` bytes. A property of the
    /// framing, not of a parser's state: the output keeps the type alone.
    static func envelope(ofBodyCount count: Int) -> FrameEnvelope
    /// The framing's name on the wire (`server.info`'s `framing`).
    var name: String { get }
}

/// What a framing writes around one outgoing message body.
public struct FrameEnvelope: Sendable {
    public var header: [UInt8]
    public var trailer: [UInt8]

    public init(header: [UInt8] = [], trailer: [UInt8] = []) {
        self.header = header
        self.trailer = trailer
    }
}

extension MessageFraming {
    /// Appends the bytes to write for one outgoing message body to `out` (read in place, so that replies
    /// gathered into one write are copied once, not framed into a buffer of their own first).
    public func frame(_ body: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        Self.frame(body, into: &out)
    }

    /// Appends the bytes to write for one outgoing message body to `out`.
    public static func frame(_ body: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        let envelope = envelope(ofBodyCount: body.count)
        out.append(contentsOf: envelope.header)
        out.append(contentsOf: body)
        out.append(contentsOf: envelope.trailer)
    }

    /// Convenience for tests and callers holding an array.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The bytes to write for one outgoing message body.
    public func frame(_ body: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 32)
        frame(body, into: &out)
        return out
    }

    /// Convenience for tests and callers holding an array.
    public func frame(_ body: [UInt8]) -> [UInt8] {
        body.withUnsafeBytes { frame($0) }
    }
}

/// Chooses the framing from the first bytes of the stream: an LSP header block starts with a header line
/// (`Content-Length: …`, or any `Name: …`); anything else is taken as newline-delimited JSON, so that
/// `null` or `true` on a first line is answered as JSON, not held as a header.
public enum FramingDetector {
    public enum Kind: String, Sendable {
        case contentLength = "content-length"
        case newline = "newline"
    }

    /// The framing for a stream starting with `bytes`, or nil while too few bytes have arrived to tell.
    public static func detect(_ bytes: some Sequence<UInt8>) -> Kind? {
        var nameLength = 0
        for byte in bytes {
            let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isNamePart = isLetter || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            if nameLength == 0 {
                if isSpace { continue }
                guard isLetter else { return .newline }
                nameLength = 1
            } else if isNamePart {
                nameLength += 1
            } else {
                return byte == UInt8(ascii: ":") ? .contentLength : .newline
            }
        }
        return nil
    }
}

/// A growable byte buffer with a read cursor; consumed bytes are dropped in bulk, not one at a time.
struct ByteBuffer: Sendable {
    private(set) var storage: [UInt8] = []
    private(set) var readIndex = 0

    var count: Int { storage.count - readIndex }
    var isEmpty: Bool { readIndex >= storage.count }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if readIndex > 0 && readIndex >= storage.count / 2 {
            storage.removeFirst(readIndex)
            readIndex = 0
        }
        storage.append(contentsOf: bytes)
    }

    subscript(offset: Int) -> UInt8 { storage[readIndex + offset] }

    /// Offset (from the read cursor) of the first `byte` at or after `from`: found by `memchr`, which looks
    /// at a word or more at a time (a byte loop was a tenth of reading a small request).
    func firstIndex(of byte: UInt8, from: Int = 0) -> Int? {
        let start = readIndex + from
        guard start < storage.count else { return nil }
        return storage.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress,
                let found = memchr(base + start, Int32(byte), buffer.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - readIndex
        }
    }

    /// Offset (from the read cursor) of the first occurrence of `pattern` at or after `from`.
    func firstIndex(of pattern: [UInt8], from: Int = 0) -> Int? {
        let n = pattern.count
        guard n > 0, count >= n else { return nil }
        let first = pattern[0]
        var index = readIndex + from
        let last = storage.count - n
        while index <= last {
            if storage[index] == first {
                var matched = true
                for k in 1..<n where storage[index + k] != pattern[k] {
                    matched = false
                    break
                }
                if matched { return index - readIndex }
            }
            index += 1
        }
        return nil
    }

    func bytes(_ range: Range<Int>) -> [UInt8] {
        Array(storage[(readIndex + range.lowerBound)..<(readIndex + range.upperBound)])
    }

    mutating func consume(_ n: Int) {
        readIndex = min(storage.count, readIndex + n)
        if readIndex == storage.count {
            storage.removeAll(keepingCapacity: storage.count <= 1 << 20)
            readIndex = 0
        }
    }
}
