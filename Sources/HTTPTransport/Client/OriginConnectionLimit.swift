import Synchronization

/// At most `limit` exchanges at once per origin; the others wait their turn, in order, without holding a
/// thread.
///
/// URLSession did the same (6 connections per host): without it, a burst of requests (a thousand
/// `favorites.add` for uncached movies, each fetching details) opened one connection each, overflowed the
/// server's accept queue, and the connections it dropped sat until their deadline.
public final class OriginConnectionLimit: Sendable {
    /// URLSession's default (`httpMaximumConnectionsPerHost`).
    public static let defaultLimit = 6

    private struct Waiter {
        let token: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Slots {
        var inUse = 0
        var waiters: [Waiter] = []
    }

    private struct State {
        var origins: [HTTPOrigin: Slots] = [:]
        var nextToken: UInt64 = 0
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int = OriginConnectionLimit.defaultLimit) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once a slot for `origin` is free; a cancelled wait throws `CancellationError`.
    func withSlot<T>(for origin: HTTPOrigin, _ body: () async throws -> T) async throws -> T {
        try await acquire(origin)
        defer { release(origin) }
        return try await body()
    }

    private func acquire(_ origin: HTTPOrigin) async throws {
        let token = state.withLock { state -> UInt64 in
            state.nextToken += 1
            return state.nextToken
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.origins[origin, default: Slots()].inUse < limit {
                        state.origins[origin, default: Slots()].inUse += 1
                        return .success(())
                    }
                    state.origins[origin, default: Slots()].waiters.append(Waiter(token: token, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            // A waiter still in line leaves it; one already given a slot keeps it (and releases it).
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.origins[origin]?.waiters.firstIndex(where: { $0.token == token }) else {
                    return nil
                }
                return state.origins[origin]?.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Hands the slot to the next waiter, or frees it.
    private func release(_ origin: HTTPOrigin) {
        let next = state.withLock { state -> Waiter? in
            guard var slots = state.origins[origin] else { return nil }
            if slots.waiters.isEmpty {
                slots.inUse -= 1
                state.origins[origin] = slots.inUse == 0 ? nil : slots
                return nil
            }
            let next = slots.waiters.removeFirst()
            state.origins[origin] = slots
            return next
        }
        next?.continuation.resume()
    }

    /// Exchanges running and waiting for `origin` (for tests).
    func counts(for origin: HTTPOrigin) -> (inUse: Int, waiting: Int) {
        state.withLock { state in
            let slots = state.origins[origin] ?? Slots()
            return (slots.inUse, slots.waiters.count)
        }
    }
}
