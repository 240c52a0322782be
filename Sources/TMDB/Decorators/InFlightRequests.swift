import Foundation
import HTTPTransport

/// The shared state of ``CoalescingHTTPClient``: one entry per distinct in-flight request, each with
/// the continuations of the callers waiting for it.
actor InFlightRequests {
    /// Identifies "the same request": method, URL, and headers with case-folded names.
    struct Key: Hashable {
        let method: HTTPMethod
        let url: URL
        let headers: [String]

        init(_ request: HTTPRequest) {
            method = request.method
            url = request.url
            headers = request.headers.map { "\($0.key.lowercased()): \($0.value)" }.sorted()
        }
    }

    private struct Entry {
        let generation: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<HTTPResponse, any Error>]
    }

    private var entries: [Key: Entry] = [:]
    private var nextID: UInt64 = 0
    private let onJoin: (@Sendable (Int) -> Void)?

    init(onJoin: (@Sendable (Int) -> Void)?) {
        self.onJoin = onJoin
    }

    var count: Int { entries.count }

    /// Waits for the response to `request`, starting it with `client` if no identical one is in flight.
    func response(for request: HTTPRequest, using client: any HTTPClient) async throws -> HTTPResponse {
        let key = Key(request)
        let waiterID = makeID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                join(key: key, waiterID: waiterID, continuation: continuation, request: request, client: client)
            }
        } onCancel: {
            Task { await self.cancel(key: key, waiterID: waiterID) }
        }
    }

    private func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    private func join(
        key: Key,
        waiterID: UInt64,
        continuation: CheckedContinuation<HTTPResponse, any Error>,
        request: HTTPRequest,
        client: any HTTPClient
    ) {
        // The cancellation handler may have run before this waiter was registered.
        if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        if var entry = entries[key] {
            entry.waiters[waiterID] = continuation
            entries[key] = entry
            onJoin?(entry.waiters.count)
            return
        }
        let generation = makeID()
        let task = Task {
            let result: Result<HTTPResponse, any Error>
            do {
                result = .success(try await client.send(request))
            } catch {
                result = .failure(error)
            }
            self.finish(key: key, generation: generation, result: result)
        }
        entries[key] = Entry(generation: generation, task: task, waiters: [waiterID: continuation])
        onJoin?(1)
    }

    private func finish(key: Key, generation: UInt64, result: Result<HTTPResponse, any Error>) {
        // A newer entry for the same key (after every earlier caller cancelled) is not ours to finish.
        guard let entry = entries[key], entry.generation == generation else { return }
        entries[key] = nil
        for continuation in entry.waiters.values {
            continuation.resume(with: result)
        }
    }

    private func cancel(key: Key, waiterID: UInt64) {
        guard var entry = entries[key], let continuation = entry.waiters.removeValue(forKey: waiterID) else {
            return
        }
        continuation.resume(throwing: CancellationError())
        if entry.waiters.isEmpty {
            entry.task?.cancel()
            entries[key] = nil
        } else {
            entries[key] = entry
        }
    }
}
