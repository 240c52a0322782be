import Synchronization

/// Up to `capacity` read-only connections, opened when first needed.
///
/// A read takes an idle reader, opens a new one while fewer than `capacity` exist, or else waits for one
/// to be returned: a short read never queues behind a long scan on a busy reader.
final class ReaderPool: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<SerializedConnection, any Error>
    }

    private struct State {
        var idle: [SerializedConnection] = []
        var all: [SerializedConnection] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var isClosed = false
    }

    private let capacity: Int
    private let open: @Sendable () throws -> SQLiteConnection
    private let state = Mutex(State())

    init(capacity: Int, open: @escaping @Sendable () throws -> SQLiteConnection) {
        self.capacity = max(1, capacity)
        self.open = open
    }

    /// Runs `body` on a reader, waiting for one if all are busy.
    func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let reader = try await checkout()
        defer { checkin(reader) }
        return try await reader.run(body)
    }

    private enum Checkout {
        case reader(SerializedConnection)
        case wait(UInt64)
    }

    private func checkout() async throws -> SerializedConnection {
        let first = try state.withLock { state -> Checkout in
            guard !state.isClosed else { throw Self.closedError }
            if let reader = state.idle.popLast() { return .reader(reader) }
            if state.all.count < capacity {
                let reader = SerializedConnection(label: "SQLiteStore.reader\(state.all.count)", open: open)
                state.all.append(reader)
                return .reader(reader)
            }
            state.nextWaiterID += 1
            return .wait(state.nextWaiterID)
        }
        switch first {
        case .reader(let reader):
            return reader
        case .wait(let id):
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let ready = state.withLock { state -> Result<SerializedConnection, any Error>? in
                        if state.isClosed { return .failure(Self.closedError) }
                        if Task.isCancelled { return .failure(CancellationError()) }
                        if let reader = state.idle.popLast() { return .success(reader) }
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                        return nil
                    }
                    if let ready { continuation.resume(with: ready) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> Waiter? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                waiter?.continuation.resume(throwing: CancellationError())
            }
        }
    }

    private func checkin(_ reader: SerializedConnection) {
        let waiter = state.withLock { state -> Waiter? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.idle.append(reader)
            return nil
        }
        waiter?.continuation.resume(returning: reader)
    }

    /// Refuses further reads and returns every reader ever opened, to be closed by the caller.
    func closeAll() -> [SerializedConnection] {
        let (readers, waiters) = state.withLock { state in
            state.isClosed = true
            defer { state.waiters = [] }
            return (state.all, state.waiters)
        }
        for waiter in waiters {
            waiter.continuation.resume(throwing: Self.closedError)
        }
        return readers
    }

    private static var closedError: SQLiteError {
        SQLiteError(code: .misuse, message: "connection is closed")
    }
}
