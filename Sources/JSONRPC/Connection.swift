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
import Synchronization

/// A JSON-RPC connection over two file descriptors: blocking reads on a dedicated thread (never
/// non-blocking mode: the flag would be shared with the parent process), framing detected from the first
/// bytes, replies written whole in the same framing.
public final class Connection: Sendable, NotificationSending {
    private let inputFD: Int32
    private let output: OutputChannel
    public let dispatcher: Dispatcher
    private let endOfInput = OneShotSignal()
    private let roomWakeup = RoomWakeup()
    /// How every request is answered: made once, not a closure allocated per request.
    private let reply: Dispatcher.Reply

    public init(inputFD: Int32, outputFD: Int32, dispatcher: Dispatcher) {
        let output = OutputChannel(fd: outputFD, maxQueuedBytes: dispatcher.limits.maxQueuedOutputBytes)
        self.inputFD = inputFD
        self.output = output
        self.dispatcher = dispatcher
        reply = { data in output.send(data, moreComing: dispatcher.hasOtherRequestsInFlight) }
        dispatcher.setNotifier(self)
        dispatcher.setReplyRoom(output)
        output.whenFull { [roomWakeup] in roomWakeup.signal() }
    }

    /// The framing detected on input (`content-length` or `newline`), nil before the first message.
    public var framingName: String? { output.framingName }

    /// Serves until end of input, then waits for every in-flight request to be answered.
    public func run() async {
        let started = DedicatedThread.start(name: "movie-rpc stdin") { [self] in
            readLoop()
            endOfInput.fire()
        }
        if !started {
            Log.error("Could not start the thread that reads input")
            endOfInput.fire()
        }
        await endOfInput.wait()
        await dispatcher.waitUntilIdle()
        await output.drain()
    }

    public func sendNotification<Params: Encodable & Sendable>(method: String, params: Params) {
        do {
            output.send(try ResultEncoding.encode(OutgoingNotification(method: method, params: params)))
        } catch {
            Log.error("Could not encode notification \(method)")
        }
    }

    private func readLoop() {
        let maxSize = dispatcher.limits.maxMessageSize
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        // The first bytes, kept until they tell the framing.
        var preamble: [UInt8] = []
        while true {
            let count = read(inputFD, buffer.baseAddress, capacity)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            preamble.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            guard let kind = FramingDetector.detect(preamble) else {
                if preamble.count > 1024 { preamble.removeAll() }  // Endless whitespace: keep nothing.
                continue
            }
            switch kind {
            case .contentLength: serve(ContentLengthFraming(maxMessageSize: maxSize), from: preamble, buffer: buffer)
            case .newline: serve(NewlineFraming(maxMessageSize: maxSize), from: preamble, buffer: buffer)
            }
            return
        }
        if FramingDetector.detect(preamble + [UInt8(ascii: "\n")]) == .newline {
            // The stream ended before the framing could be told apart: a short last line of JSON.
            var lastLine = NewlineFraming(maxMessageSize: maxSize)
            lastLine.append(preamble)
            output.setFraming(lastLine)
            takeLastRequests(from: &lastLine)
        }
    }

    /// Reads and takes requests in the detected framing until the input ends. Generic, so that each framing
    /// has a loop of its own where it is a value of its own type: as an existential it was copied at each
    /// access, about 600 instructions a request.
    private func serve<Framing: MessageFraming>(
        _ framing: Framing, from preamble: [UInt8], buffer: UnsafeMutableRawBufferPointer
    ) {
        var framing = framing
        framing.append(preamble)
        output.setFraming(framing)
        Log.debug("Framing: \(framing.name)")
        let maxBuffered = dispatcher.limits.maxBufferedInputBytes
        var stall = StallWatch(patience: Self.stallTime)
        while true {
            if !takeRequests(from: &framing) {
                // The backlog or the output is full. When the output is, and the client has read none of
                // its replies for `Self.stallTime` (it writes everything before it reads), read on into the
                // framing buffer, where a request costs only its bytes, until it holds `maxBuffered`. A client
                // that reads, however slowly, is held back by the pipe instead: buffering its requests would
                // only cost memory. Either way, take requests again once there is room.
                let (stalled, timeout) = stall.check(
                    outputFull: output.isFull, writes: output.completedWrites, now: .now)
                let input = stalled && framing.bufferedByteCount < maxBuffered ? inputFD : nil
                guard roomWakeup.wait(for: dispatcher, output, orInput: input, timeout: timeout) else { continue }
            }
            let count = read(inputFD, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            framing.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        takeLastRequests(from: &framing)
    }

    /// At the end of the input: what is left, each request once there is room for it.
    private func takeLastRequests<Framing: MessageFraming>(from framing: inout Framing) {
        while true {
            if !hasRoom {
                _ = roomWakeup.wait(for: dispatcher, output, orInput: nil, timeout: .seconds(1))
                continue
            }
            guard let event = framing.finish() else { break }
            deliver(event)
        }
    }

    /// How long a full output may go without a write before its client is taken for one that reads nothing
    /// until it has written everything: long against the gaps of a client that reads on a busy machine
    /// (100 ms was not: a pipelined bench client, taken for one that had stopped, cost the server 4 MiB of
    /// buffered requests in one run of three), short against a person's patience.
    static let stallTime = Duration.seconds(1)

    /// Takes the buffered requests while the dispatcher and the output have room; false when it stopped for
    /// room. The requests read and not yet answered are held to their budget this way, and so are the
    /// replies: a request taken while the output is full would only wait, as a job, for the replies ahead
    /// of it to be read (1,800 of them held a megabyte where their replies held 300 KB). Replies never block
    /// a request (they queue in the output, written by a thread of its own), so a client that does not read
    /// fills the output, then the framing buffer, and then the pipe holds it back: memory stays bounded.
    private func takeRequests<Framing: MessageFraming>(from framing: inout Framing) -> Bool {
        // The replies of the requests answered while they are taken go out together when the run ends. The
        // last request read (the only one, for a client that waits for each answer) is not held: its reply is
        // written as soon as it is ready, and its task's teardown runs while the client reads it.
        var holding = false
        defer { if holding { output.releaseWrites() } }
        while hasRoom {
            guard let event = framing.next() else { return true }
            let moreRead = framing.bufferedByteCount > 0
            if moreRead != holding {
                if moreRead { output.holdWrites() } else { output.releaseWrites() }
                holding = moreRead
            }
            deliver(event)
        }
        return false
    }

    /// Whether a request may be taken: the dispatcher's backlog and the output both have room.
    private var hasRoom: Bool { dispatcher.hasRoom && !output.isFull }

    private func deliver(_ event: FrameEvent) {
        switch event {
        case .message(let bytes): dispatcher.receive(bytes, reply: reply)
        case .error(let error): dispatcher.receive(framingError: error, reply: reply)
        }
    }
}

private struct OutgoingNotification<Params: Encodable>: Encodable {
    let jsonrpc = "2.0"
    let method: String
    let params: Params
}

/// Fires once; every waiter, before or after, is released.
final class OneShotSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state -> Bool in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}

/// Tells a client that reads nothing until it has written everything from one that reads slowly: the
/// output has been full, with no write completed, for `patience`.
struct StallWatch {
    let patience: Duration
    private var watched: (writes: UInt64, since: ContinuousClock.Instant)?
    private var reported = false

    init(patience: Duration) {
        self.patience = patience
    }

    /// Whether the client has stalled, and how long to wait before looking again, given whether the output
    /// is full and how many writes have completed so far.
    mutating func check(
        outputFull: Bool, writes: UInt64, now: ContinuousClock.Instant
    ) -> (stalled: Bool, wait: Duration) {
        guard outputFull else {
            watched = nil
            reported = false
            return (false, .seconds(1))
        }
        guard let watched, watched.writes == writes else {
            self.watched = (writes, now)
            reported = false
            return (false, patience)
        }
        let stalled = now - watched.since
        guard stalled >= patience else { return (false, patience - stalled) }
        if !reported {
            reported = true
            Log.debug("No reply read for \(stalled): buffering the client's requests")
        }
        return (true, .seconds(1))
    }
}

/// How the reading thread waits for room in the dispatcher and, at the same time, for input: a pipe of its
/// own that the dispatcher's wake-up writes a byte to, polled with the input (the input stays in blocking
/// mode, whose flag the parent process shares).
final class RoomWakeup: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            // Both ends non-blocking: a wake-up never waits (a byte already there is enough), and the reader
            // empties the pipe without waiting.
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        } else {
            Log.error("Could not create the reading thread's wake-up pipe; it polls for room instead")
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Waits until `dispatcher` and `output` have room (at once when both have), a `signal()` (the output
    /// has filled), or, when `input` is given, until it is readable, for at most `timeout` (after which the
    /// caller looks again); true when the input is readable.
    func wait(for dispatcher: Dispatcher, _ output: OutputChannel, orInput input: Int32?, timeout: Duration) -> Bool {
        let waitsForDispatcher = dispatcher.wakeWhenRoom { [self] in signal() }
        let waitsForOutput = output.wakeWhenRoom { [self] in signal() }
        guard waitsForDispatcher || waitsForOutput else { return false }
        var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        if let input { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000
            + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = fds.withUnsafeMutableBufferPointer { fds in
            poll(fds.baseAddress, nfds_t(fds.count), max(1, milliseconds))
        }
        guard ready > 0 else { return false }
        if fds[0].revents != 0 { drain() }
        return fds.count > 1 && fds[1].revents != 0
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    private func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
