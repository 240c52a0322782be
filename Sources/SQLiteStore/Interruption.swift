import Synchronization

/// Cancellation of the access running on one connection: a cancelled task marks its own access
/// interrupted, and the connection's progress and busy handlers stop the statement or the lock wait
/// (SQLite then reports `SQLITE_INTERRUPT` or `SQLITE_BUSY`, which ``SerializedConnection`` turns into
/// `CancellationError`).
///
/// Accesses are numbered, so a cancellation that arrives late, after its access ended and another began,
/// interrupts nothing. The flag is an atomic because the progress handler reads it every few hundred
/// virtual-machine instructions.
final class Interruption: Sendable {
    private struct Current {
        var access: UInt64 = 0
        var isActive = false
    }

    private let current = Mutex(Current())
    private let interrupted = Atomic<Bool>(false)
    private let nextAccess = Atomic<UInt64>(1)

    /// A number for an access not begun yet, to pass to ``begin(_:)`` and ``interrupt(_:)``.
    func makeAccessID() -> UInt64 {
        nextAccess.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Marks `access` as the one running now, not interrupted.
    func begin(_ access: UInt64) {
        current.withLock { current in
            current = Current(access: access, isActive: true)
            interrupted.store(false, ordering: .relaxed)
        }
    }

    /// Marks the running access as finished; a later ``interrupt(_:)`` for it does nothing.
    func end() {
        current.withLock { current in
            current.isActive = false
            interrupted.store(false, ordering: .relaxed)
        }
    }

    /// Interrupts `access` if it is the one running; from any thread.
    func interrupt(_ access: UInt64) {
        current.withLock { current in
            if current.isActive && current.access == access {
                interrupted.store(true, ordering: .relaxed)
            }
        }
    }

    /// Whether the running access was interrupted.
    var isInterrupted: Bool {
        interrupted.load(ordering: .relaxed)
    }
}
