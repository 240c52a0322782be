import Foundation
import Testing
@testable import JSONRPC

@Suite("Connection over pipes", .tags(.transport), .timeLimit(.minutes(10)))
struct ConnectionTests {
    /// How long a helper thread waits for what only a defect would keep from coming, before it goes on so
    /// that the test can end and fail. Generous: on a loaded machine the AddressSanitizer suite resumed
    /// tasks over 30 s late.
    static let hangFallback: TimeInterval = 300

    private func contentLength(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }

    private func byID(_ replies: [JSONValue]) -> [JSONValue: JSONValue] {
        Dictionary(replies.map { ($0["id"] ?? .null, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func contentLengthInputGetsContentLengthReplies() async throws {
        let fixture = DispatcherFixture()
        let server = try PipeServer(dispatcher: fixture.dispatcher)
        defer { server.closeInput() }
        let running = Task { await server.connection.run() }
        var replies = ReplyReader(server.output, framing: ContentLengthFraming())

        let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
        let add = #"{"jsonrpc":"2.0","id":"two","method":"math.add","params":{"a":2,"b":3,"note":"é"}}"#
        let hello = #"{"jsonrpc":"2.0","method":"notify_hello"}"#
        server.write(contentLength(ping) + contentLength(hello))
        let first = try #require(try await replies.next())
        #expect(first == ["jsonrpc": "2.0", "id": 1, "result": "pong"])
        #expect(server.connection.framingName == "content-length")

        // One message written in three pieces, split inside the header and inside a multi-byte character.
        let bytes = utf8(contentLength(add))
        let cut = try #require(bytes.firstIndex(of: 0xC3))
        server.write(Array(bytes[0..<5]))
        server.write(Array(bytes[5...cut]))
        server.write(Array(bytes[(cut + 1)...]))
        let second = try #require(try await replies.next())
        #expect(second == ["jsonrpc": "2.0", "id": "two", "result": ["sum": 5]])

        server.closeInput()
        await running.value
        server.closeConnectionEnds()
        #expect(try await replies.rest().isEmpty)
        #expect(fixture.helloNotifications.count == 1)
        // Every byte written is a Content-Length frame of one reply.
        let framed = replies.bodies.flatMap { ContentLengthFraming().frame($0) }
        #expect(replies.raw == framed)
        #expect(replies.framingErrors.isEmpty)
    }

    /// A request starts on the reading thread ("movie-rpc stdin"), so an answer from memory costs no wake-up of
    /// another thread. At its first suspension it leaves that thread, which reads on: a request parked on a
    /// gate holds up neither the reading nor the next answers, which start on the reading thread too.
    @Test func aRequestStartsOnTheReadingThreadAndLeavesItAtItsFirstSuspension() async throws {
        let fixture = DispatcherFixture()
        let server = try PipeServer(dispatcher: fixture.dispatcher)
        defer { server.closeInput() }
        let running = Task { await server.connection.run() }
        var replies = ReplyReader(server.output, framing: NewlineFraming())
        server.write(#"{"jsonrpc":"2.0","id":1,"method":"thread.name"}"# + "\n")
        #expect(try await replies.next()?["result"] == "movie-rpc stdin")

        server.write(#"{"jsonrpc":"2.0","id":2,"method":"slow"}"# + "\n")
        await fixture.slowStarted.wait(for: 1)
        for id in 3...4 {
            server.write(#"{"jsonrpc":"2.0","id":\#(id),"method":"thread.name"}"# + "\n")
            let reply = try #require(try await replies.next())
            #expect(reply["id"] == .int(id))
            #expect(reply["result"] == "movie-rpc stdin")
        }
        #expect(fixture.slowFinished.count == 0)
        // A message over 512 bytes (here padded with whitespace) has its params decoded on the global
        // executor instead: that work would keep the reading thread from reading (Dispatcher.maxCostStartedHere).
        let padding = String(repeating: " ", count: 600)
        server.write(#"{"jsonrpc":"2.0","id":5,"method":"thread.name"\#(padding)}"# + "\n")
        let large = try #require(try await replies.next())
        #expect(large["id"] == 5)
        #expect(large["result"] != "movie-rpc stdin")
        fixture.gate.open()
        #expect(try await replies.next() == ["jsonrpc": "2.0", "id": 2, "result": "done"])
        server.closeInput()
        await running.value
        server.closeConnectionEnds()
    }

    @Test func newlineInputGetsNewlineReplies() async throws {
        let fixture = DispatcherFixture()
        let server = try PipeServer(dispatcher: fixture.dispatcher)
        defer { server.closeInput() }
        let running = Task { await server.connection.run() }
        var replies = ReplyReader(server.output, framing: NewlineFraming())

        server.write("\n  \r\n" + #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\r\n")
        let first = try #require(try await replies.next())
        #expect(first == ["jsonrpc": "2.0", "id": 1, "result": "pong"])
        #expect(server.connection.framingName == "newline")

        server.write(#"[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"nope"}]"# + "\n")
        let batch = try #require(try await replies.next()?.elements)
        #expect(Set(batch.compactMap { $0["id"] }) == [2, 3])

        // The last line has no newline: it is answered once input ends.
        server.write(#"{"jsonrpc":"2.0","id":4,"method":"subtract","params":{"minuend":5,"subtrahend":1}}"#)
        server.closeInput()
        await running.value
        server.closeConnectionEnds()
        #expect(try await replies.rest() == [["jsonrpc": "2.0", "id": 4, "result": 4]])
        let framed = replies.bodies.flatMap { NewlineFraming().frame($0) }
        #expect(replies.raw == framed)
    }

    /// Closing input while a request runs: `run()` returns only once that request has been answered.
    @Test func runReturnsAfterAnsweringInFlightRequests() async throws {
        let fixture = DispatcherFixture()
        let server = try PipeServer(dispatcher: fixture.dispatcher)
        defer { server.closeInput() }
        let running = Task {
            await server.connection.run()
            return fixture.slowFinished.count
        }
        var replies = ReplyReader(server.output, framing: NewlineFraming())

        server.write(#"{"jsonrpc":"2.0","id":1,"method":"slow"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"slow"}"#
            + "\n" + #"{"jsonrpc":"2.0","method":"notify_hello"}"#)
        await fixture.slowStarted.wait(for: 2)
        server.closeInput()
        // The last line has no newline, so it is delivered only after end of input was read.
        await fixture.helloNotifications.wait(for: 1)
        fixture.gate.open()
        let finishedWhenRunReturned = await running.value
        #expect(finishedWhenRunReturned == 2)
        server.closeConnectionEnds()
        let all = try await replies.rest()
        #expect(byID(all) == [
            1: ["jsonrpc": "2.0", "id": 1, "result": "done"],
            2: ["jsonrpc": "2.0", "id": 2, "result": "done"],
        ])
        #expect(all.count == 2)
    }

    @Test func cancelOverTheWire() async throws {
        let fixture = DispatcherFixture()
        let server = try PipeServer(dispatcher: fixture.dispatcher)
        defer { server.closeInput() }
        let running = Task { await server.connection.run() }
        var replies = ReplyReader(server.output, framing: ContentLengthFraming())

        server.write(contentLength(#"{"jsonrpc":"2.0","id":"s","method":"slow"}"#))
        await fixture.slowStarted.wait(for: 1)
        server.write(contentLength(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s"}}"#))
        let reply = try #require(try await replies.next())
        #expect(reply["id"] == "s")
        #expect(reply.errorCode == -32800)
        server.closeInput()
        await running.value
        server.closeConnectionEnds()
        #expect(try await replies.rest().isEmpty)
    }

    @Test func handlerNotificationsUseTheConnectionsFraming() async throws {
        let fixture = DispatcherFixture()
        let server = try PipeServer(dispatcher: fixture.dispatcher)
        defer { server.closeInput() }
        let running = Task { await server.connection.run() }
        var replies = ReplyReader(server.output, framing: ContentLengthFraming())

        server.write(contentLength(#"{"jsonrpc":"2.0","id":1,"method":"progress"}"#))
        server.closeInput()
        await running.value
        server.closeConnectionEnds()
        #expect(try await replies.rest() == [
            ["jsonrpc": "2.0", "method": "$/progress", "params": ["percent": 50]],
            ["jsonrpc": "2.0", "id": 1, "result": "finished"],
        ])
        #expect(replies.raw == replies.bodies.flatMap { ContentLengthFraming().frame($0) })
    }

    @Test func framingErrorsAreAnsweredAndTheStreamRecovers() async throws {
        let fixture = DispatcherFixture(limits: .init(maxMessageSize: 64))
        let server = try PipeServer(dispatcher: fixture.dispatcher)
        defer { server.closeInput() }
        let running = Task { await server.connection.run() }
        var replies = ReplyReader(server.output, framing: ContentLengthFraming())

        let big = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"\#(String(repeating: "x", count: 80))"}}"#
        server.write(contentLength(big))
        server.write("Content-Length: nope\r\n\r\n" + #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        server.write(contentLength(#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#))
        server.closeInput()
        await running.value
        server.closeConnectionEnds()
        let all = try await replies.rest()
        try #require(all.count == 3, "\(all)")
        #expect(all[0]["id"] == .null)
        #expect(all[0].errorCode == -32600)
        #expect(all[0]["error"]?["data"]?["kind"] == "messageTooLarge")
        #expect(all[1]["id"] == .null)
        #expect(all[1].errorCode == -32700)
        #expect(all[2] == ["jsonrpc": "2.0", "id": 3, "result": "pong"])
    }

    /// A client that writes all its requests before it reads a reply is served while its requests fit
    /// the framing buffer, although their replies are far beyond the output's budget and the backlog's:
    /// once the replies have no room, the connection reads on into that buffer instead of stopping.
    @Test func aClientThatWritesEverythingBeforeReadingIsServedFromTheFramingBuffer() async throws {
        let limits = Dispatcher.Limits(
            maxConcurrentRequests: 2, maxQueuedInputBytes: 4096, maxQueuedOutputBytes: 4096,
            maxBufferedInputBytes: 1 << 20)
        let fixture = DispatcherFixture(limits: limits)
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        try #require(pipe(&input) == 0)
        try #require(pipe(&output) == 0)
        let connection = Connection(inputFD: input[0], outputFD: output[1], dispatcher: fixture.dispatcher)
        let running = Task { await connection.run() }
        // 3,000 requests (200 KB, three times what the input pipe holds) and 3 MB of replies.
        let count = 3000
        let requests = (0..<count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"blob","params":{"count":1000}}"# }
            .joined(separator: "\n") + "\n"
        let (inputRead, inputWrite, outputRead, outputWrite) = (input[0], input[1], output[0], output[1])
        let writesEnded = DispatchSemaphore(value: 0)
        Thread {
            var bytes = utf8(requests)
            _ = bytes.withUnsafeMutableBytes { FileDescriptorWriter.writeAll(fd: inputWrite, $0) }
            close(inputWrite)
            writesEnded.signal()
        }.start()
        // The replies are read only once every request is written; if the server stopped reading, the
        // writes never end, and after a generous wait the reader drains the replies so the test can end.
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<(Bool, [UInt8]), Never>) in
            Thread {
                let wroteAll = writesEnded.wait(timeout: .now() + Self.hangFallback) == .success
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = buffer.withUnsafeMutableBytes { read(outputRead, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    received += buffer[0..<n]
                }
                close(outputRead)
                continuation.resume(returning: (wroteAll, received))
            }.start()
            Task {
                await running.value
                close(outputWrite)
                close(inputRead)
            }
        }
        let (wroteAll, received) = result
        #expect(wroteAll, "the connection stopped reading while its replies waited for the client")
        var framing = NewlineFraming()
        framing.append(received)
        var ids: Set<Int> = []
        while case .message(let body) = framing.next() {
            if let id = try JSONDecoder().decode(JSONValue.self, from: Data(body))["id"], case .int(let value) = id {
                ids.insert(value)
            }
        }
        #expect(ids == Set(0..<count))
    }

    /// Sending never blocks the sender, whatever the pipe holds: 1 KB frames that nobody reads queue once
    /// the pipe is full. (The check before writing directly took the pipe's unread bytes for the slots they
    /// fill; three 1 KB writes fill a slot of 4 KiB, so the 49th send blocked in `write`.)
    @Test func sendingToAPipeNobodyReadsNeverBlocks() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let output = OutputChannel(fd: writeEnd)
        output.setFraming(NewlineFraming())
        let frame = [UInt8](repeating: UInt8(ascii: "x"), count: 1037)
        let count = 200
        let sent = DispatchSemaphore(value: 0)
        Thread {
            for _ in 0..<count { output.send(frame) }
            sent.signal()
        }.start()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<(Bool, Int), Never>) in
            Thread {
                let returned = sent.wait(timeout: .now() + Self.hangFallback) == .success
                // Read what was sent, so that a blocked sender is released and the test ends either way.
                var received = 0
                var buffer = [UInt8](repeating: 0, count: 65536)
                while received < count * (frame.count + 1) {
                    let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    received += n
                }
                continuation.resume(returning: (returned, received))
            }.start()
        }
        await output.drain()
        close(writeEnd)
        close(readEnd)
        let (returned, received) = result
        #expect(returned, "a send blocked on the full pipe")
        #expect(received == count * (frame.count + 1))
    }

    /// A client counts as stalled only once the output has been full, with no write completed, for the
    /// whole patience: a write, or an output with room, starts the watch again. (A controlled clock.)
    @Test func aClientStallsOnlyAfterAFullOutputWithoutAWriteForItsPatience() {
        var watch = StallWatch(patience: .seconds(1))
        let start = ContinuousClock.now
        #expect(watch.check(outputFull: false, writes: 0, now: start) == (false, .seconds(1)))
        #expect(watch.check(outputFull: true, writes: 5, now: start) == (false, .seconds(1)))
        #expect(watch.check(outputFull: true, writes: 5, now: start + .milliseconds(400)) == (false, .milliseconds(600)))
        // A write completed: the client reads, and the watch starts again.
        #expect(watch.check(outputFull: true, writes: 6, now: start + .milliseconds(900)) == (false, .seconds(1)))
        #expect(watch.check(outputFull: true, writes: 6, now: start + .milliseconds(1500)).stalled == false)
        #expect(watch.check(outputFull: true, writes: 6, now: start + .milliseconds(1900)).stalled)
        #expect(watch.check(outputFull: true, writes: 6, now: start + .seconds(5)).stalled)
        // Room in the output ends the stall.
        #expect(watch.check(outputFull: false, writes: 6, now: start + .seconds(6)).stalled == false)
        #expect(watch.check(outputFull: true, writes: 6, now: start + .seconds(6)).stalled == false)
    }

    @Test func emptyInputEndsAtOnce() async throws {
        let fixture = DispatcherFixture()
        let server = try PipeServer(dispatcher: fixture.dispatcher)
        var replies = ReplyReader(server.output, framing: NewlineFraming())
        server.closeInput()
        await server.connection.run()
        server.closeConnectionEnds()
        #expect(try await replies.rest().isEmpty)
        #expect(server.connection.framingName == nil)
    }
}
