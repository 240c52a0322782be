import Synchronization

/// How many things run at once, and the most that ever did.
final class Gauge: Sendable {
    private let state = Mutex<(current: Int, peak: Int)>((0, 0))

    func enter() {
        state.withLock { state in
            state.current += 1
            state.peak = max(state.peak, state.current)
        }
    }

    func leave() { state.withLock { $0.current -= 1 } }

    var peak: Int { state.withLock { $0.peak } }
}
