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

    public init(inputFD: Int32, outputFD: Int32, dispatcher: Dispatcher) {
        self.inputFD = inputFD
        self.output = OutputChannel(fd: outputFD, maxQueuedBytes: dispatcher.limits.maxQueuedOutputBytes)
        self.dispatcher = dispatcher
        dispatcher.setNotifier(self)
        dispatcher.setReplyRoom(output)
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
        var framing: (any MessageFraming)?
        var preamble: [UInt8] = []
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(inputFD, buffer.baseAddress, capacity)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if framing == nil {
                preamble.append(contentsOf: chunk)
                guard let kind = FramingDetector.detect(preamble) else {
                    if preamble.count > 1024 { preamble.removeAll() }  // Endless whitespace: keep nothing.
                    continue
                }
                var detected: any MessageFraming = kind == .contentLength
                    ? ContentLengthFraming(maxMessageSize: maxSize) : NewlineFraming(maxMessageSize: maxSize)
                detected.append(preamble)
                preamble = []
                output.setFraming(detected)
                Log.debug("Framing: \(detected.name)")
                framing = detected
            } else {
                framing?.append(chunk)
            }
            while let event = framing?.next() { deliver(event) }
            waitForRoom()
        }
        if framing == nil, FramingDetector.detect(preamble + [UInt8(ascii: "\n")]) == .newline {
            // The stream ended before the framing could be told apart: a short last line of JSON.
            var lastLine: any MessageFraming = NewlineFraming(maxMessageSize: maxSize)
            lastLine.append(preamble)
            output.setFraming(lastLine)
            framing = lastLine
        }
        while let event = framing?.finish() { deliver(event) }
    }

    /// Stops reading while the requests read and not yet answered exceed their budget; the client is then
    /// held back by the pipe, so memory stays bounded. Replies never block a request (they queue in the
    /// output, written by a thread of its own), so the backlog drains while the client reads, and a client
    /// that writes everything before it reads is held back only once both the input and the output budget
    /// are full (the output's holds back the start of new requests).
    private func waitForRoom() {
        while !dispatcher.waitForRoom(timeout: .seconds(1)) {}
    }

    private func deliver(_ event: FrameEvent) {
        let reply: Dispatcher.Reply = { [output, dispatcher] data in
            output.send(data, moreComing: dispatcher.hasOtherRequestsInFlight)
        }
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
