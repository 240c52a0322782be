import Synchronization

/// Counts events and lets a test await the n-th one.
final class EventCounter: Sendable {
    private struct State {
        var count = 0
        var nextToken: UInt64 = 0
        var waiters: [UInt64: (target: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.count } }

    func record() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let reached = state.waiters.filter { $0.value.target <= state.count }
            for token in reached.keys { state.waiters[token] = nil }
            return reached.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `record()` has been called at least `target` times, or when the task is cancelled
    /// (a test past its time limit), so that a missing event fails the test instead of hanging it.
    func wait(for target: Int) async {
        let token = state.withLock { state -> UInt64 in
            state.nextToken += 1
            return state.nextToken
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.count >= target || Task.isCancelled { return true }
                    state.waiters[token] = (target, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: token) }?.continuation.resume()
        }
    }
}
