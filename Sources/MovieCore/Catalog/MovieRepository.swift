#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The one shared catalog repository: network first, as the app does it. It asks the source, stores the
/// answer, and when the network fails answers from the local database, saying so.
///
/// - Identical concurrent requests share one upstream fetch (the only coalescing on the way to TMDB).
/// - After a transport failure, calls within `offlineWindow` answer from the cache at once (no waiting
///   for another timeout) while one background fetch re-checks the network; `networkFirst` calls already
///   waiting for TMDB when it fails are released to the cache too.
/// - A memory layer in front of SQLite keeps hot cached answers from being decoded again. It is read
///   without entering the actor: a `cacheFirst` or `cacheOnly` read it can answer (an editor's usual read)
///   neither waits behind the actor's work nor pays the two hops. The typed entry points run on their
///   caller's executor (`nonisolated(nonsending)`), so such a read switches no executor at all.
public actor MovieRepository {
    public let source: any CatalogSource
    private let cache: CatalogCache?
    private let offlineWindow: TimeInterval
    private let now: @Sendable () -> Date

    /// Keyed by the request itself: a hit hashes a few fields, and builds no cache-key string.
    private let memory = Mutex<[CatalogRequest: CatalogCache.Entry]>([:])
    private let memoryCapacity = 512
    private var inFlight: [String: SharedFetch] = [:]
    private var offlineUntil: Date?
    private var probing = false

    private final class SharedFetch: Sendable {
        let task: Task<CatalogPayload, any Error>
        init(task: Task<CatalogPayload, any Error>) { self.task = task }
    }

    /// - Parameter offlineSearch: the local index's search, the stand-in for TMDB's when it cannot answer
    ///   (see ``search(_:policy:)``); nil answers such searches from cached identical searches only.
    public init(
        source: any CatalogSource, cache: CatalogCache?, offlineWindow: TimeInterval = 15,
        now: @escaping @Sendable () -> Date = Date.init, offlineSearch: OfflineSearch? = nil
    ) {
        self.source = source
        self.cache = cache
        self.offlineWindow = offlineWindow
        self.now = now
        self.offlineSearch = offlineSearch
    }

    /// True after a transport failure, until the network answers again or the window passes.
    public var isOffline: Bool {
        guard let offlineUntil else { return false }
        return offlineUntil > now()
    }

    // MARK: Typed entry points

    public nonisolated(nonsending) func genres(
        language: String?, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<[Genre]> {
        try await typed(.genres(language: language), policy) { if case .genres(let value) = $0 { value } else { nil } }
    }

    public nonisolated(nonsending) func page(
        _ request: CatalogRequest, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<MoviePage> {
        try await typed(request, policy) { if case .page(let value) = $0 { value } else { nil } }
    }

    public nonisolated(nonsending) func details(
        _ request: CatalogRequest, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<MovieDetails> {
        try await typed(request, policy) { if case .details(let value) = $0 { value } else { nil } }
    }

    public nonisolated(nonsending) func credits(
        _ movieID: Int, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<MovieCredits> {
        try await typed(.credits(movieID: movieID), policy) { if case .credits(let value) = $0 { value } else { nil } }
    }

    public nonisolated(nonsending) func videos(
        _ request: CatalogRequest, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<[Video]> {
        try await typed(request, policy) { if case .videos(let value) = $0 { value } else { nil } }
    }

    /// Every country's offers, by ISO 3166-1 code.
    public nonisolated(nonsending) func watchProviders(
        _ movieID: Int, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<[String: WatchOptions]> {
        try await typed(.watchProviders(movieID: movieID), policy) {
            if case .watchProviders(let value) = $0 { value } else { nil }
        }
    }

    public nonisolated(nonsending) func movie(
        _ request: CatalogRequest, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<MovieSummary> {
        try await typed(request, policy) { if case .movie(let value) = $0 { value } else { nil } }
    }

    public nonisolated(nonsending) func people(
        _ request: CatalogRequest, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<PersonPage> {
        try await typed(request, policy) { if case .people(let value) = $0 { value } else { nil } }
    }

    public nonisolated(nonsending) func person(
        _ request: CatalogRequest, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<PersonDetails> {
        try await typed(request, policy) { if case .person(let value) = $0 { value } else { nil } }
    }

    private nonisolated(nonsending) func typed<Value: Sendable>(
        _ request: CatalogRequest, _ policy: CachePolicy, _ extract: (CatalogPayload) -> Value?
    ) async throws -> Sourced<Value> {
        let sourced: Sourced<CatalogPayload>
        if let remembered = try answerFromMemory(request, policy) {
            sourced = remembered
        } else {
            sourced = try await fetch(request, policy: policy)
        }
        return try sourced.map { payload in
            guard let value = extract(payload) else {
                throw MovieError.upstream(httpStatus: 502, retryable: false, message: "Unexpected catalog answer")
            }
            return value
        }
    }

    // MARK: Search, with the local index as the offline stand-in

    /// Searches the movies stored locally: the stand-in for TMDB's search when it cannot be reached.
    public typealias OfflineSearch = @Sendable (MovieSearch) async throws -> MoviePage

    private var offlineSearch: OfflineSearch?

    /// Installs the local index's search after the fact (the initializer takes it too).
    public func useOfflineSearch(_ search: @escaping OfflineSearch) {
        offlineSearch = search
    }

    /// A title search: TMDB's answer, or its cached copy; when neither is available (offline, TMDB failing,
    /// or `cacheOnly` with no copy), the local index's answer with `complete: false`, since the index
    /// only knows the movies stored here. Runs on its caller's executor, as `page` does: an answer from
    /// memory enters the actor only when it has to fall back to the index.
    public nonisolated(nonsending) func search(
        _ search: MovieSearch, policy: CachePolicy = .networkFirst
    ) async throws -> Sourced<MoviePage> {
        do {
            return try await page(.search(search), policy: policy)
        } catch let error as MovieError {
            guard policy != .networkOnly, source.kind != .demo, let offlineSearch = await offlineSearch else {
                throw error
            }
            switch error {
            case .offlineNotCached, .upstream:
                let page = try await offlineSearch(search)
                return Sourced(value: page, source: .cache, fetchedAt: now(), stale: false, complete: false)
            default:
                throw error
            }
        }
    }

    // MARK: The policy

    /// `request` answered from memory: by a source that holds every answer there (the demo catalog, under
    /// any policy), or from the memory layer when `policy` lets a stored copy answer at once and the layer
    /// holds one. The answer `fetch` would give, found without entering the actor. Nil otherwise.
    private nonisolated func answerFromMemory(_ request: CatalogRequest, _ policy: CachePolicy) throws -> Sourced<CatalogPayload>? {
        if let payload = try source.answerInMemory(request) {
            return Sourced(value: payload, source: source.kind, fetchedAt: now(), stale: false)
        }
        guard cache != nil, source.kind != .demo, policy == .cacheFirst || policy == .cacheOnly,
            let entry = memory.withLock({ $0[request] })
        else { return nil }
        if policy == .cacheFirst, now().timeIntervalSince(entry.fetchedAt) > request.timeToLive { return nil }
        return answer(entry, request)
    }

    /// Answers `request` under `policy`. Throws `MovieError` or `CancellationError`.
    public func fetch(_ request: CatalogRequest, policy: CachePolicy) async throws -> Sourced<CatalogPayload> {
        guard let cache, source.kind != .demo else {
            return Sourced(value: try await fetchFromSource(request), source: source.kind, fetchedAt: now(), stale: false)
        }
        switch policy {
        case .cacheOnly:
            guard let entry = try await cached(request, cache) else { throw MovieError.offlineNotCached(request.subject) }
            return answer(entry, request)
        case .cacheFirst:
            if let entry = try await cached(request, cache), now().timeIntervalSince(entry.fetchedAt) <= request.timeToLive {
                return answer(entry, request)
            }
            return try await networkFirst(request, key: request.cacheKey, cache: cache)
        case .networkFirst:
            return try await networkFirst(request, key: request.cacheKey, cache: cache)
        case .networkOnly:
            let key = request.cacheKey
            if isOffline { startProbe(request, key: key, cache: cache) }
            return try await fromNetwork(request, key: key, cache: cache)
        }
    }

    private func networkFirst(_ request: CatalogRequest, key: String, cache: CatalogCache) async throws -> Sourced<CatalogPayload> {
        if isOffline {
            startProbe(request, key: key, cache: cache)
            guard let entry = try await cached(request, cache) else { throw MovieError.offlineNotCached(request.subject) }
            return answer(entry, request)
        }
        do {
            return try await untilOffline(request.subject) { try await self.fromNetwork(request, key: key, cache: cache) }
        } catch let error as MovieError {
            // Failures the cache can stand in for: offline, upstream 5xx and malformed answers.
            switch error {
            case .offlineNotCached, .upstream:
                if let entry = try await cached(request, cache) { return answer(entry, request) }
                throw error
            default:
                throw error
            }
        }
    }

    private func fromNetwork(_ request: CatalogRequest, key: String, cache: CatalogCache) async throws -> Sourced<CatalogPayload> {
        let payload = try await sharedFetch(request, key: key)
        let fetchedAt = now()
        offlineUntil = nil
        remember(request, CatalogCache.Entry(payload: payload, fetchedAt: fetchedAt))
        do {
            try await cache.store(key, payload, fetchedAt: fetchedAt)
        } catch {
            // The answer is good; failing to keep a copy only costs offline use later.
            StoreLog.warning("Could not cache \(request.subject): \(StorageErrors.map(error))")
        }
        return Sourced(value: payload, source: .network, fetchedAt: fetchedAt, stale: false)
    }

    /// One upstream fetch per key at a time; later callers wait for the same answer. A caller that is
    /// cancelled stops waiting at once; the fetch itself is cancelled only when nobody else waits for it.
    private func sharedFetch(_ request: CatalogRequest, key: String) async throws -> CatalogPayload {
        lastFetchWaiterID += 1
        let id = lastFetchWaiterID
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<CatalogPayload, any Error>) in
                    guard !Task.isCancelled else { return waiter.resume(throwing: CancellationError()) }
                    if inFlight[key] == nil { startSharedFetch(request, key: key) }
                    fetchWaiters[key, default: [:]][id] = waiter
                }
            } onCancel: {
                Task { await self.stopWaitingForFetch(key: key, id: id) }
            }
        } catch let error as MovieError {
            if case .offlineNotCached = error { wentOffline() }
            throw error
        }
    }

    private func startSharedFetch(_ request: CatalogRequest, key: String) {
        let source = self.source
        let shared = SharedFetch(task: Task { try await source.fetch(request) })
        inFlight[key] = shared
        Task {
            let outcome = await shared.task.result
            self.finishSharedFetch(key: key, shared, outcome)
        }
    }

    /// The fetch for `key` ended: every caller still waiting gets its outcome.
    private func finishSharedFetch(key: String, _ shared: SharedFetch, _ outcome: Result<CatalogPayload, any Error>) {
        guard inFlight[key] === shared else { return }  // abandoned by all its callers, and cancelled
        inFlight[key] = nil
        for waiter in (fetchWaiters.removeValue(forKey: key) ?? [:]).values { waiter.resume(with: outcome) }
    }

    /// A caller of `sharedFetch` was cancelled: it stops waiting; the last one to go cancels the fetch.
    private func stopWaitingForFetch(key: String, id: UInt64) {
        guard let waiter = fetchWaiters[key]?.removeValue(forKey: id) else { return }
        waiter.resume(throwing: CancellationError())
        guard fetchWaiters[key]?.isEmpty ?? true else { return }
        fetchWaiters[key] = nil
        inFlight.removeValue(forKey: key)?.task.cancel()
    }

    /// Callers waiting for the shared fetch of `key` (for tests).
    func fetchWaiterCount(_ key: String) -> Int { fetchWaiters[key]?.count ?? 0 }

    private var fetchWaiters: [String: [UInt64: CheckedContinuation<CatalogPayload, any Error>]] = [:]
    private var lastFetchWaiterID: UInt64 = 0

    // MARK: Going offline releases the requests still waiting for TMDB

    /// `networkFirst` requests waiting for TMDB, released when another request finds it unreachable: they
    /// then answer from the cache at once instead of each waiting for a timeout of its own.
    private var offlineWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var lastOfflineWaiterID: UInt64 = 0

    private func wentOffline() {
        offlineUntil = now().addingTimeInterval(offlineWindow)
        let released = offlineWaiters
        offlineWaiters = [:]
        for waiter in released.values { waiter.resume() }
    }

    /// Runs `operation` (a fetch from TMDB) until it finishes or the repository goes offline, whichever
    /// comes first; in the second case throws `offlineNotCached` (the fetch is cancelled for this caller).
    private func untilOffline<T: Sendable>(
        _ subject: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        lastOfflineWaiterID += 1
        let id = lastOfflineWaiterID
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask { await self.waitUntilOffline(id); return nil }
            defer { group.cancelAll() }
            if let first = try await group.next(), let value = first { return value }
            try Task.checkCancellation()
            throw MovieError.offlineNotCached(subject)
        }
    }

    /// Returns when the repository goes offline, or when the calling task is cancelled.
    private func waitUntilOffline(_ id: UInt64) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                if isOffline || Task.isCancelled {
                    waiter.resume()
                } else {
                    offlineWaiters[id] = waiter
                }
            }
        } onCancel: {
            Task { await self.stopWaitingUntilOffline(id) }
        }
    }

    private func stopWaitingUntilOffline(_ id: UInt64) {
        offlineWaiters.removeValue(forKey: id)?.resume()
    }

    private func fetchFromSource(_ request: CatalogRequest) async throws -> CatalogPayload {
        try await source.fetch(request)
    }

    /// While offline, one background fetch at a time re-checks the network (and refreshes the cache).
    private func startProbe(_ request: CatalogRequest, key: String, cache: CatalogCache) {
        guard !probing else { return }
        probing = true
        Task {
            defer { self.probeFinished() }
            _ = try? await self.fromNetwork(request, key: key, cache: cache)
        }
    }

    private func probeFinished() { probing = false }

    // MARK: Cache layers

    private func cached(_ request: CatalogRequest, _ cache: CatalogCache) async throws -> CatalogCache.Entry? {
        if let entry = memory.withLock({ $0[request] }) { return entry }
        let entry: CatalogCache.Entry?
        do {
            entry = try await cache.load(request.cacheKey)
        } catch {
            StoreLog.warning("Could not read the catalog cache: \(StorageErrors.map(error))")
            return nil
        }
        if let entry { remember(request, entry) }
        return entry
    }

    private func remember(_ request: CatalogRequest, _ entry: CatalogCache.Entry) {
        memory.withLock { $0.set(entry, for: request, keepingAtMost: memoryCapacity) }
    }

    private nonisolated func answer(_ entry: CatalogCache.Entry, _ request: CatalogRequest) -> Sourced<CatalogPayload> {
        let age = now().timeIntervalSince(entry.fetchedAt)
        return Sourced(value: entry.payload, source: .cache, fetchedAt: entry.fetchedAt, stale: age > request.timeToLive)
    }
}

extension Sourced {
    public func map<Other>(_ transform: (Value) throws -> Other) rethrows -> Sourced<Other> {
        Sourced<Other>(
            value: try transform(value), source: source, fetchedAt: fetchedAt, stale: stale, complete: complete)
    }
}
