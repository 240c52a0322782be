import Synchronization

/// Idle keep-alive connections, per origin: at most ``maxIdlePerOrigin`` each, none older than
/// ``maxIdleDuration``, and none the server has closed (checked before reuse).
final class ConnectionPool: Sendable {
    static let maxIdlePerOrigin = 4
    static let maxIdleDuration = Duration.seconds(30)

    private let idle = Mutex<[HTTPOrigin: [HTTPConnection]]>([:])

    /// The most recently used idle connection to `origin` that is still fit for a request, if any.
    func take(_ origin: HTTPOrigin) -> HTTPConnection? {
        while let candidate = idle.withLock({ $0[origin]?.popLast() }) {
            if ContinuousClock.now - candidate.idleSince < Self.maxIdleDuration, candidate.isReusable {
                return candidate
            }
            candidate.close()
        }
        return nil
    }

    /// Keeps `connection` for a later request to its origin (or closes it when the pool is full).
    func put(_ connection: HTTPConnection) {
        let now = ContinuousClock.now
        connection.idleSince = now
        var expired: [HTTPConnection] = []
        let kept = idle.withLock { idle in
            for (origin, connections) in idle {
                let (old, fresh) = (
                    connections.filter { now - $0.idleSince >= Self.maxIdleDuration },
                    connections.filter { now - $0.idleSince < Self.maxIdleDuration }
                )
                expired += old
                idle[origin] = fresh.isEmpty ? nil : fresh
            }
            guard idle[connection.origin, default: []].count < Self.maxIdlePerOrigin else { return false }
            idle[connection.origin, default: []].append(connection)
            return true
        }
        // Closing (a TLS free, a close(2)) happens outside the lock.
        for connection in expired { connection.close() }
        if !kept { connection.close() }
    }

    /// Closes every idle connection.
    func closeAll() {
        let all = idle.withLock { idle in
            defer { idle = [:] }
            return idle.values.flatMap { $0 }
        }
        for connection in all { connection.close() }
    }
}
