import Foundation
import Synchronization
@testable import JSONRPC

/// A `Connection` between two pipes: the test writes requests into one and reads replies from the other.
/// Replies are read with blocking reads on a thread of their own, and arrive as an `AsyncStream`.
final class PipeServer: Sendable {
    struct PipeError: Error {}

    let connection: Connection
    private let inputWrite: Int32
    private let inputRead: Int32
    private let outputWrite: Int32
    private let closed = Mutex<Set<Int32>>([])
    /// Raw bytes as the connection wrote them, in chunks as `read` returned them.
    let output: AsyncStream<[UInt8]>

    init(dispatcher: Dispatcher) throws {
        var input: [Int32] = [0, 0]
        var out: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { throw PipeError() }
        guard pipe(&out) == 0 else {
            close(input[0])
            close(input[1])
            throw PipeError()
        }
        inputRead = input[0]
        inputWrite = input[1]
        outputWrite = out[1]
        connection = Connection(inputFD: inputRead, outputFD: outputWrite, dispatcher: dispatcher)
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        output = stream
        let outputRead = out[0]
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(outputRead, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                continuation.yield(Array(buffer[0..<count]))
            }
            close(outputRead)
            continuation.finish()
        }
        reader.start()
    }

    /// Writes `bytes` to the connection's input.
    func write(_ bytes: [UInt8]) {
        var bytes = bytes
        _ = bytes.withUnsafeMutableBytes { FileDescriptorWriter.writeAll(fd: inputWrite, $0) }
    }

    func write(_ text: String) { write(utf8(text)) }

    /// End of input for the connection. Safe to call more than once.
    func closeInput() { closeOnce(inputWrite) }

    /// After `run()` returned: closes the connection's ends, so the reply stream finishes.
    func closeConnectionEnds() {
        closeOnce(inputRead)
        closeOnce(outputWrite)
    }

    private func closeOnce(_ fd: Int32) {
        let first = closed.withLock { $0.insert(fd).inserted }
        if first { close(fd) }
    }
}

/// Splits a connection's output into message bodies with the framing the replies should use, keeping the
/// raw bytes to check the framing itself.
struct ReplyReader {
    private var chunks: AsyncStream<[UInt8]>.Iterator
    private var framing: any MessageFraming
    private(set) var raw: [UInt8] = []
    private(set) var bodies: [[UInt8]] = []
    private(set) var framingErrors: [FramingError] = []

    init(_ output: AsyncStream<[UInt8]>, framing: any MessageFraming) {
        chunks = output.makeAsyncIterator()
        self.framing = framing
    }

    /// The next reply, decoded; nil at end of output.
    mutating func next() async throws -> JSONValue? {
        while true {
            if let event = framing.next() {
                switch event {
                case .message(let body):
                    bodies.append(body)
                    return try JSONDecoder().decode(JSONValue.self, from: Data(body))
                case .error(let error):
                    framingErrors.append(error)
                    continue
                }
            }
            guard let chunk = await chunks.next() else { return nil }
            raw += chunk
            framing.append(chunk)
        }
    }

    /// Every reply until end of output.
    mutating func rest() async throws -> [JSONValue] {
        var values: [JSONValue] = []
        while let value = try await next() { values.append(value) }
        return values
    }
}
