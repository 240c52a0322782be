import Foundation
import Testing
@testable import JSONRPC

/// The output's writers: a sender writing without blocking, the reading thread's held runs, and the writer
/// thread taking over what the pipe could not take at once, with every frame out once, whole and in order.
@Suite("Output channel", .tags(.transport), .timeLimit(.minutes(10)))
struct OutputChannelTests {
    /// A pipe whose read end the test reads.
    private struct Pipe {
        let readEnd: Int32
        let writeEnd: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            (readEnd, writeEnd) = (ends[0], ends[1])
        }

        /// Whether bytes wait to be read, looked at without waiting.
        var hasUnreadBytes: Bool {
            var unread: CInt = 0
            return ioctl(readEnd, UInt(FIONREAD), &unread) == 0 && unread > 0
        }

        /// Reads exactly `count` bytes (on a thread of its own: a blocked read must not hold a cooperative one).
        func read(_ count: Int) async -> [UInt8] {
            await withCheckedContinuation { continuation in
                Thread {
                    var received: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    while received.count < count {
                        let n = buffer.withUnsafeMutableBytes {
                            Foundation.read(readEnd, $0.baseAddress, min($0.count, count - received.count))
                        }
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        received += buffer[0..<n]
                    }
                    continuation.resume(returning: received)
                }.start()
            }
        }

        func close() {
            Foundation.close(readEnd)
            Foundation.close(writeEnd)
        }
    }

    private func frames(_ sizes: [Int]) -> [[UInt8]] {
        sizes.enumerated().map { index, size in
            [UInt8](repeating: UInt8(ascii: "a") + UInt8(index % 26), count: size)
        }
    }

    private func newlineFramed(_ frames: [[UInt8]]) -> [UInt8] {
        frames.flatMap { $0 + [UInt8(ascii: "\n")] }
    }

    /// An output writing into a new pipe with `framing`, for `body`; the pipe is closed after.
    private func withOutput(
        framing: any MessageFraming = NewlineFraming(), _ body: (Pipe, OutputChannel) async throws -> Void
    ) async throws {
        let pipe = try Pipe()
        defer { pipe.close() }
        let output = OutputChannel(fd: pipe.writeEnd)
        output.setFraming(framing)
        try await body(pipe, output)
    }

    /// Sends `sent` (each `moreComing` as given) and expects them in the pipe, newline-framed, whole and in
    /// order; then drains the output and returns what it still counts as queued.
    @discardableResult
    private func expectSentInOrder(_ sent: [[UInt8]], moreComing: Bool = false) async throws -> Int {
        var queuedAfterDrain = 0
        try await withOutput { pipe, output in
            for frame in sent { output.send(frame, moreComing: moreComing) }
            let expected = newlineFramed(sent)
            #expect(await pipe.read(expected.count) == expected)
            await output.drain()
            queuedAfterDrain = output.queuedBytes
        }
        return queuedAfterDrain
    }

    @Test func aSenderWritesAtOnceWhenNobodyElseDoes() async throws {
        try await withOutput { pipe, output in
            let sent = frames([10, 20])
            output.send(sent[0])
            // Written by the send itself: the bytes are in the pipe when it returns.
            #expect(pipe.hasUnreadBytes)
            output.send(sent[1])
            #expect(await pipe.read(32) == newlineFramed(sent))
            await output.drain()
        }
    }

    @Test func repliesHeldByTheReadingThreadGoOutWhenItReleases() async throws {
        try await withOutput(framing: ContentLengthFraming()) { pipe, output in
            let sent = frames([5, 7, 9])
            output.holdWrites()
            for frame in sent { output.send(frame) }
            #expect(!pipe.hasUnreadBytes)
            output.releaseWrites()
            let expected = sent.flatMap { ContentLengthFraming().frame($0) }
            #expect(await pipe.read(expected.count) == expected)
            await output.drain()
        }
    }

    /// A long run is not answered all at its end: once a pipe's worth waits, it goes out.
    @Test func heldRepliesGoOutOnceAPipesWorthWaits() async throws {
        try await withOutput { pipe, output in
            // Queued frames are counted by their buffers' capacity: sent until the next one reaches the limit.
            let all = frames(Array(repeating: 1000, count: 2 * OutputChannel.heldBytesLimit / 1000))
            var queued = 0
            let below = all.prefix { frame in
                defer { queued += frame.capacity }
                return queued + frame.capacity < OutputChannel.heldBytesLimit
            }
            let sent = Array(all.prefix(below.count + 1))
            output.holdWrites()
            for frame in below { output.send(frame) }
            #expect(!pipe.hasUnreadBytes)
            output.send(sent[sent.count - 1])
            let expected = newlineFramed(sent)
            let received = await pipe.read(expected.count)
            #expect(received == expected)
            output.releaseWrites()
            await output.drain()
        }
    }

    /// What the pipe cannot take at once (a frame larger than the pipe, frames behind a full pipe) is written
    /// by the writer thread once the client reads, after the part already written and before anything newer.
    @Test func whatThePipeCannotTakeFollowsInOrderOnceTheClientReads() async throws {
        #expect(try await expectSentInOrder(frames([40_000, 300_000, 10, 70_000, 3])) == 0)
    }

    /// A reply written alone, where it is, that the pipe takes only part of (behind a 40 KB reply the client
    /// has not read): its rest follows from the writer thread, before the replies after it.
    @Test func aReplyThePipeTakesOnlyPartOfFollowsInOrder() async throws {
        #expect(try await expectSentInOrder(frames([40_000, 30_000, 10, 20_000, 5])) == 0)
    }

    /// Replies that others follow (`moreComing`) go to the writer thread, which writes them together.
    @Test func repliesWithMoreComingAreWrittenByTheWriterThread() async throws {
        try await expectSentInOrder(frames([100, 200, 300]), moreComing: true)
    }

    /// An output that is no pipe (a file the client redirected it to) gets every frame too.
    @Test func aFileGetsEveryFrameInOrder() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { unlink(path) }
        let output = OutputChannel(fd: fd)
        output.setFraming(NewlineFraming())
        let sent = frames([10, 100_000, 20, 300_000, 30])
        for (index, frame) in sent.enumerated() { output.send(frame, moreComing: index % 2 == 1) }
        await output.drain()
        close(fd)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == newlineFramed(sent))
    }
}
