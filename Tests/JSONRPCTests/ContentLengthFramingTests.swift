import Testing
@testable import JSONRPC

@Suite("Content-Length framing", .tags(.framing))
struct ContentLengthFramingTests {
    let harness = FramingHarness { ContentLengthFraming() }
    let small = FramingHarness { ContentLengthFraming(maxMessageSize: 10) }

    private func frame(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }

    @Test func frameWritesHeaderThenBody() {
        let body = utf8(#"{"id":1,"t":"é"}"#)
        let expected = utf8("Content-Length: \(body.count)\r\n\r\n") + body
        #expect(ContentLengthFraming().frame(body) == expected)
        #expect(ContentLengthFraming().frame([]) == utf8("Content-Length: 0\r\n\r\n"))
        #expect(ContentLengthFraming().name == "content-length")
    }

    @Test func frameOutputParsesBack() {
        let bodies = [#"{"a":1}"#, "", #"["ü",{"x":"\r\n\r\n"}]"#].map(utf8)
        let stream = bodies.flatMap { ContentLengthFraming().frame($0) }
        #expect(harness.events(whole: stream) == bodies.map { .message($0) })
    }

    @Test func twoMessagesSplitAtEveryOffset() {
        let first = #"{"jsonrpc":"2.0","id":1,"method":"a"}"#
        let second = #"{"jsonrpc":"2.0","id":2,"method":"b","params":{"t":"Amélie 🎬"}}"#
        let stream = utf8(frame(first) + frame(second))
        let expected: [FrameEvent] = [.message(utf8(first)), .message(utf8(second))]
        #expect(harness.events(whole: stream) == expected)
        #expect(harness.events(byteByByte: stream) == expected)
        for (offset, events) in harness.eventsForEverySplit(stream) {
            #expect(events == expected, "split at \(offset)")
        }
    }

    @Test func manyMessagesInOneChunk() {
        let bodies = (0..<200).map { #"{"id":\#($0)}"# }
        let stream = utf8(bodies.map(frame).joined())
        #expect(harness.events(whole: stream) == bodies.map { .message(utf8($0)) })
    }

    @Test(arguments: ["Content-Length", "content-length", "CONTENT-LENGTH", "cOnTeNt-LeNgTh"])
    func headerNameIsCaseInsensitive(name: String) {
        let stream = utf8("\(name): 2\r\n\r\n{}\(name):3\r\n\r\n[1]")
        #expect(harness.events(whole: stream) == [.message(utf8("{}")), .message(utf8("[1]"))])
    }

    @Test func otherHeadersAreIgnored() {
        let stream = utf8(
            "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
                + "Content-Length: 2\r\nX-Trace:  abc \r\n\r\n[]")
        let expected: [FrameEvent] = [.message(utf8(#"{"a":1}"#)), .message(utf8("[]"))]
        #expect(harness.events(whole: stream) == expected)
        #expect(harness.events(byteByByte: stream) == expected)
    }

    @Test func lengthCountsBytesNotCharacters() {
        let body = #"{"title":"Léon ☕️ 東京"}"#
        #expect(body.utf8.count > body.count)
        let stream = utf8(frame(body) + frame("{}"))
        let expected: [FrameEvent] = [.message(utf8(body)), .message(utf8("{}"))]
        for (offset, events) in harness.eventsForEverySplit(stream) {
            #expect(events == expected, "split at \(offset)")
        }
    }

    @Test func blankLinesBetweenMessagesAreTolerated() {
        let stream = utf8("\r\n" + frame("{}") + "\r\n" + frame("[]") + "\r\n\r\n\n" + frame("1"))
        let expected: [FrameEvent] = [.message(utf8("{}")), .message(utf8("[]")), .message(utf8("1"))]
        #expect(harness.events(whole: stream) == expected)
        #expect(harness.events(byteByByte: stream) == expected)
    }

    @Test(arguments: [
        "Content-Type: application/json\r\n\r\n{\"a\":1}",  // no Content-Length at all
        "Content-Length: abc\r\n\r\n{\"a\":1}",
        "Content-Length: -5\r\n\r\n{\"a\":1}",
        "Content-Length: +7\r\n\r\n{\"a\":1}",
        "Content-Length: 0x7\r\n\r\n{\"a\":1}",
        "Content-Length: 7 7\r\n\r\n{\"a\":1}",
        "Content-Length:\r\n\r\n{\"a\":1}",
        "Content-Length 7\r\n\r\n{\"a\":1}",  // no colon
        "Content-Length: abc\r\n\r\n",  // broken header, no body
    ])
    func brokenHeaderIsReportedAndTheNextMessageStillComesOut(broken: String) throws {
        let good = #"{"id":2}"#
        let stream = utf8(broken + frame(good) + frame("[]"))
        let events = harness.events(whole: stream)
        try #require(events.count == 3, "\(events)")
        #expect(events[0].isInvalidHeader)
        #expect(events[1] == .message(utf8(good)))
        #expect(events[2] == .message(utf8("[]")))
        #expect(harness.events(byteByByte: stream) == events)
        for (offset, split) in harness.eventsForEverySplit(stream) {
            #expect(split == events, "split at \(offset)")
        }
    }

    @Test func missingContentLengthSaysSo() {
        let events = harness.events(whole: utf8("Content-Type: text/plain\r\n\r\n"))
        #expect(events == [.error(.invalidHeader("Missing Content-Length header"))])
    }

    @Test func oversizedMessageIsSkippedEvenWhenItsBodyArrivesInPieces() {
        let big = String(repeating: "x", count: 25)
        let stream = utf8("Content-Length: 25\r\n\r\n\(big)" + frame(#"{"a":1}"#))
        let expected: [FrameEvent] = [
            .error(.messageTooLarge(size: 25, limit: 10)), .message(utf8(#"{"a":1}"#)),
        ]
        #expect(small.events(whole: stream) == expected)
        #expect(small.events(byteByByte: stream) == expected)
        for (offset, events) in small.eventsForEverySplit(stream) {
            #expect(events == expected, "split at \(offset)")
        }
        // The error comes out as soon as the header is complete, before any of the body.
        var framing = ContentLengthFraming(maxMessageSize: 10)
        framing.append(utf8("Content-Length: 25\r\n\r\nxxxxx"))
        #expect(framing.next() == .error(.messageTooLarge(size: 25, limit: 10)))
        #expect(framing.next() == nil)
        framing.append(utf8(String(repeating: "y", count: 19)))
        #expect(framing.next() == nil)
        framing.append(utf8("z" + frame("{}")))
        #expect(framing.next() == .message(utf8("{}")))
    }

    @Test func messageExactlyAtTheLimitIsAccepted() {
        let body = String(repeating: "1", count: 10)
        #expect(small.events(whole: utf8(frame(body))) == [.message(utf8(body))])
    }

    @Test func absurdLengthIsTooLargeNotACrash() {
        let events = harness.events(whole: utf8("Content-Length: 99999999999999999999999999\r\n\r\n{}"))
        #expect(events == [.error(.messageTooLarge(size: Int.max, limit: 16 * 1024 * 1024))])
    }

    /// Issue #13 item 11: the saturated length was skipped byte by byte forever, so every later message
    /// was silently dropped.
    @Test func absurdLengthIsAnsweredAndTheNextMessageStillComesOut() {
        let next = #"{"jsonrpc":"2.0","id":2,"method":"b"}"#
        let stream = utf8("Content-Length: 99999999999999999999999999\r\n\r\n{}" + frame(next))
        let expected: [FrameEvent] = [
            .error(.messageTooLarge(size: Int.max, limit: 16 * 1024 * 1024)), .message(utf8(next)),
        ]
        #expect(harness.events(whole: stream) == expected)
        #expect(harness.events(byteByByte: stream) == expected)
        for (offset, events) in harness.eventsForEverySplit(stream) {
            #expect(events == expected, "split at \(offset)")
        }
    }

    @Test func lengthBeyondTheSkipLimitResynchronisesInsteadOfSkipping() {
        let framing = ContentLengthFraming(maxMessageSize: 10)
        #expect(framing.maxSkippedLength == 40)
        #expect(ContentLengthFraming(maxMessageSize: Int.max).maxSkippedLength == Int.max)
        let stream = utf8("Content-Length: 41\r\n\r\nxx" + frame("{}"))
        let expected: [FrameEvent] = [.error(.messageTooLarge(size: 41, limit: 10)), .message(utf8("{}"))]
        #expect(small.events(byteByByte: stream) == expected)
        for (offset, events) in small.eventsForEverySplit(stream) {
            #expect(events == expected, "split at \(offset)")
        }
        // At the skip limit the body is still skipped: what follows it is the next message.
        let skipped = utf8("Content-Length: 40\r\n\r\n" + String(repeating: "y", count: 40) + frame("[]"))
        let skippedEvents: [FrameEvent] = [.error(.messageTooLarge(size: 40, limit: 10)), .message(utf8("[]"))]
        #expect(small.events(byteByByte: skipped) == skippedEvents)
    }

    /// Issue #13 item 11: the last of two conflicting lengths won, and the next frame was lost.
    @Test func conflictingLengthsAreRefusedAndTheNextMessageStillComesOut() {
        let stream = utf8("Content-Length: 2\r\nContent-Length: 7\r\n\r\n{\"a\":1}" + frame("[1]"))
        let expected: [FrameEvent] = [
            .error(.invalidHeader("Conflicting Content-Length headers")), .message(utf8("[1]")),
        ]
        #expect(harness.events(whole: stream) == expected)
        #expect(harness.events(byteByByte: stream) == expected)
        for (offset, events) in harness.eventsForEverySplit(stream) {
            #expect(events == expected, "split at \(offset)")
        }
    }

    @Test func repeatedEqualLengthsAreOneLength() {
        let stream = utf8("Content-Length: 2\r\ncontent-length: 02\r\n\r\n{}" + frame("[]"))
        #expect(harness.events(byteByByte: stream) == [.message(utf8("{}")), .message(utf8("[]"))])
    }

    @Test func incompleteMessageAtEndOfStreamYieldsNothing() {
        #expect(harness.events(whole: utf8("Content-Length: 10\r\n\r\n{\"a\"")).isEmpty)
        #expect(harness.events(whole: utf8("Content-Length: 10\r\n")).isEmpty)
        #expect(harness.events(whole: utf8("\r\n\r\n")).isEmpty)
    }

    @Test func emptyBodyIsAMessage() {
        #expect(harness.events(whole: utf8("Content-Length: 0\r\n\r\n")) == [.message([])])
    }
}
