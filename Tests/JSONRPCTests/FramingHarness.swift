@testable import JSONRPC

/// Feeds bytes to a fresh framing parser in chosen chunks and collects everything it yields.
struct FramingHarness {
    let make: @Sendable () -> any MessageFraming

    /// Every event for `chunks` fed in order, draining `next()` after each chunk and `finish()` at the end.
    func events(_ chunks: [[UInt8]]) -> [FrameEvent] {
        var framing = make()
        var events: [FrameEvent] = []
        for chunk in chunks {
            framing.append(chunk)
            while let event = framing.next() { events.append(event) }
        }
        while let event = framing.finish() { events.append(event) }
        return events
    }

    func events(whole bytes: [UInt8]) -> [FrameEvent] { events([bytes]) }

    func events(byteByByte bytes: [UInt8]) -> [FrameEvent] { events(bytes.map { [$0] }) }

    /// The events for `bytes` split into two chunks at offset `k`, for every `k` in `0...bytes.count`.
    func eventsForEverySplit(_ bytes: [UInt8]) -> [(offset: Int, events: [FrameEvent])] {
        (0...bytes.count).map { k in
            (k, events([Array(bytes[0..<k]), Array(bytes[k...])]))
        }
    }
}

extension FrameEvent {
    /// The same event with the size of an oversized message forgotten: a newline parser can only report
    /// how much of an over-long line it had seen, which depends on how the bytes arrived.
    var ignoringSize: FrameEvent {
        if case .error(.messageTooLarge(_, let limit)) = self { return .error(.messageTooLarge(size: 0, limit: limit)) }
        return self
    }

    var isInvalidHeader: Bool {
        if case .error(.invalidHeader) = self { return true }
        return false
    }

    var text: String? {
        if case .message(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }
}

/// The UTF-8 bytes of `text`.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
