import Testing
@testable import JSONRPC

@Suite("Newline framing", .tags(.framing))
struct NewlineFramingTests {
    let harness = FramingHarness { NewlineFraming() }
    let small = FramingHarness { NewlineFraming(maxMessageSize: 10) }

    @Test func frameAppendsOneNewline() {
        let body = utf8(#"{"id":1,"t":"é\n"}"#)
        #expect(NewlineFraming().frame(body) == body + [0x0A])
        #expect(NewlineFraming().frame([]) == [0x0A])
        #expect(NewlineFraming().name == "newline")
    }

    @Test func twoMessagesSplitAtEveryOffset() {
        let first = #"{"jsonrpc":"2.0","id":1,"method":"a"}"#
        let second = #"{"jsonrpc":"2.0","id":2,"method":"b","params":{"t":"Amélie 🎬"}}"#
        let stream = utf8(first + "\n" + second + "\r\n")
        let expected: [FrameEvent] = [.message(utf8(first)), .message(utf8(second))]
        #expect(harness.events(whole: stream) == expected)
        #expect(harness.events(byteByByte: stream) == expected)
        for (offset, events) in harness.eventsForEverySplit(stream) {
            #expect(events == expected, "split at \(offset)")
        }
    }

    @Test func manyMessagesInOneChunk() {
        let bodies = (0..<200).map { #"{"id":\#($0)}"# }
        let stream = utf8(bodies.map { $0 + "\n" }.joined())
        #expect(harness.events(whole: stream) == bodies.map { .message(utf8($0)) })
    }

    @Test func crlfLinesLoseTheirCarriageReturn() {
        let stream = utf8("{\"a\":1}\r\n[2]\r\n")
        #expect(harness.events(whole: stream) == [.message(utf8(#"{"a":1}"#)), .message(utf8("[2]"))])
    }

    @Test func blankLinesAreSkipped() {
        let stream = utf8("\n\r\n  \t \n{}\n\n\r\n[]\n   ")
        let expected: [FrameEvent] = [.message(utf8("{}")), .message(utf8("[]"))]
        #expect(harness.events(whole: stream) == expected)
        for (offset, events) in harness.eventsForEverySplit(stream) {
            #expect(events == expected, "split at \(offset)")
        }
    }

    @Test func overLongLineIsReportedAndTheNextLineIsFine() {
        let stream = utf8(String(repeating: "x", count: 25) + "\n{\"a\":1}\n")
        let expected: [FrameEvent] = [.error(.messageTooLarge(size: 25, limit: 10)), .message(utf8(#"{"a":1}"#))]
        #expect(small.events(whole: stream) == expected)
        let byteByByte = small.events(byteByByte: stream)
        #expect(byteByByte.map(\.ignoringSize) == expected.map(\.ignoringSize))
        for (offset, events) in small.eventsForEverySplit(stream) {
            #expect(events.map(\.ignoringSize) == expected.map(\.ignoringSize), "split at \(offset)")
        }
    }

    @Test func overLongLineIsReportedBeforeItsNewlineArrives() {
        var framing = NewlineFraming(maxMessageSize: 10)
        framing.append(utf8(String(repeating: "x", count: 11)))
        #expect(framing.next() == .error(.messageTooLarge(size: 11, limit: 10)))
        framing.append(utf8(String(repeating: "y", count: 100)))
        #expect(framing.next() == nil)
        framing.append(utf8("yyy\n[1]"))
        #expect(framing.next() == nil)
        #expect(framing.finish() == .message(utf8("[1]")))
    }

    /// A line of exactly the limit is accepted however it is split, including between its `\r` and `\n`.
    @Test func lineExactlyAtTheLimitIsAcceptedAtEverySplit() {
        let line = String(repeating: "7", count: 10)
        let stream = utf8(line + "\r\n" + line + "\n")
        let expected: [FrameEvent] = [.message(utf8(line)), .message(utf8(line))]
        #expect(small.events(byteByByte: stream) == expected)
        for (offset, events) in small.eventsForEverySplit(stream) {
            #expect(events == expected, "split at \(offset)")
        }
    }

    @Test func finishYieldsALastLineWithoutNewline() {
        #expect(harness.events(whole: utf8("{\"a\":1}\n{\"b\":2}")) == [
            .message(utf8(#"{"a":1}"#)), .message(utf8(#"{"b":2}"#)),
        ])
        #expect(harness.events(byteByByte: utf8("[3]")) == [.message(utf8("[3]"))])
        #expect(harness.events(whole: utf8("{}\n  \t")) == [.message(utf8("{}"))])
        #expect(harness.events(whole: []).isEmpty)
    }

    /// Found by libFuzzer: a last line of exactly the limit followed by `\r` and end of input came out with
    /// its `\r`, one byte over the limit. The `\r` ends the line, as in `\r\n`, at every split point.
    @Test func finishTakesAFinalCarriageReturnAsTheLineEnding() {
        let line = String(repeating: "x", count: 10)  // `small`'s limit
        let expected: [FrameEvent] = [.message(utf8(line))]
        #expect(small.events(whole: utf8(line + "\r")) == expected)
        #expect(small.events(byteByByte: utf8(line + "\r")) == expected)
        for (offset, events) in small.eventsForEverySplit(utf8(line + "\r")) {
            #expect(events == expected, "split at \(offset)")
        }
        #expect(harness.events(whole: utf8("[1]\r\n[2]\r")) == [.message(utf8("[1]")), .message(utf8("[2]"))])
    }

    @Test func finishDropsTheRestOfAnOverLongLine() {
        let events = small.events(whole: utf8(String(repeating: "x", count: 30)))
        #expect(events == [.error(.messageTooLarge(size: 30, limit: 10))])
    }
}
