import Foundation
import Synchronization
@testable import JSONRPC

/// Collects every reply a `Dispatcher` sends: kept in order for inspection, and streamed so a test can
/// await the next one instead of sleeping.
final class ReplyCollector: Sendable {
    private let received = Mutex<[Data]>([])
    private let stream: AsyncStream<Data>
    private let continuation: AsyncStream<Data>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Data>.makeStream()
    }

    /// The closure to hand to `Dispatcher.receive`.
    var reply: Dispatcher.Reply {
        { [self] bytes in
            let data = Data(bytes)  // kept as `Data`, which the tests decode
            received.withLock { $0.append(data) }
            continuation.yield(data)
        }
    }

    /// Every reply so far, as raw bytes.
    var all: [Data] { received.withLock { $0 } }

    /// Every reply so far, as text.
    var texts: [String] { all.map { String(decoding: $0, as: UTF8.self) } }

    /// Every reply so far, decoded.
    func values() throws -> [JSONValue] {
        try all.map { try JSONDecoder().decode(JSONValue.self, from: $0) }
    }

    /// Waits for the next reply in arrival order (from the stream, independent of `all`). Iterators of
    /// one `AsyncStream` share its buffer, so a fresh one per call continues where the last stopped.
    func next() async -> Data? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}
