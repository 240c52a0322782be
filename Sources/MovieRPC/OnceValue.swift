import Synchronization

/// A value computed on first use, once, safely from any thread.
final class OnceValue<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    func get(_ make: () -> Value) -> Value {
        storage.withLock { value in
            if let value { return value }
            let made = make()
            value = made
            return made
        }
    }
}
