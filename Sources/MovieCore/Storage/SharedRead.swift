import Synchronization

/// One small read shared by the callers that wait for it at the same time: a pipelined burst of
/// `events.list` requests then pays one hop to a reader queue per group instead of one each (the hop and
/// its thread wake-ups were most of a kept page's cost).
///
/// A caller never takes the result of a read that was under way when it arrived (that read may predate a
/// change the caller must see): it waits for the next read, which starts after it. The first caller to
/// arrive while nothing runs reads; callers arriving meanwhile wait, and when that read ends the first of
/// them reads for all of them.
final class SharedRead<Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Turn, Never>

    private enum Turn {
        case done(Result<Value, any Error>)
        /// Read now, for yourself and for these callers, all of which arrived before this read starts.
        case lead(followers: [Waiter])
    }

    private struct State {
        var running = false
        /// Arrived while a read runs: served by the next one.
        var waiting: [Waiter] = []
        var reads = 0
    }

    private let body: @Sendable () async throws -> Value
    private let state = Mutex(State())

    init(_ body: @escaping @Sendable () async throws -> Value) {
        self.body = body
    }

    /// How many callers wait for the next read (tests wait for a caller to arrive).
    var waitingCount: Int {
        state.withLock { $0.waiting.count }
    }

    /// How many reads have started.
    var readCount: Int {
        state.withLock { $0.reads }
    }

    /// The value as read after this call began.
    func value() async throws -> Value {
        let turn = await withCheckedContinuation { (waiter: Waiter) in
            let leads = state.withLock { state -> Bool in
                guard state.running else {
                    state.running = true
                    state.reads += 1
                    return true
                }
                state.waiting.append(waiter)
                return false
            }
            if leads { waiter.resume(returning: .lead(followers: [])) }
        }
        switch turn {
        case .lead(let followers):
            let result: Result<Value, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            let next = state.withLock { state -> [Waiter] in
                defer { state.waiting = [] }
                if state.waiting.isEmpty { state.running = false } else { state.reads += 1 }
                return state.waiting
            }
            if let leader = next.first { leader.resume(returning: .lead(followers: Array(next.dropFirst()))) }
            for follower in followers { follower.resume(returning: .done(result)) }
            return try result.get()
        case .done(let result):
            // The leader's cancellation is not this caller's: it reads again.
            if case .failure(let error) = result, error is CancellationError, !Task.isCancelled {
                return try await value()
            }
            return try result.get()
        }
    }
}
