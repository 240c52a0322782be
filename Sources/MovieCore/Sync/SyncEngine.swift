#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// Keeps the logged-in Firebase user's favorites and profile fields in step with Cloud Firestore, local
/// first: local changes are committed with their outbox entry (``SyncJournal``) and answered at once;
/// this engine pushes the outbox in the background (commits of ``pushBatchSize`` writes, up to
/// ``pushConcurrency`` of them in flight), pulls what changed remotely since the last pull and applies it
/// under ``ConflictRule``.
///
/// **When it runs:** at start and after a login; shortly after each local change (debounced); when a
/// list is read and the last pull is older than the interval; periodically at that interval; on
/// `sync.now`. One cycle at a time (pull, then push).
///
/// **Failures** never reach local answers. The outbox is kept; network failures, 5xx and 429 are retried
/// with exponential backoff (1 s doubling to 5 min); an expired ID token is refreshed and the call made
/// once more; a refusal by the security rules (403) or a malformed request is tried at most
/// ``maxRefusals`` times in a row, then not again until a local change, a login or `sync.now`.
/// `status()` says which state it is in and the last error in plain words (never a token).
public actor SyncEngine {
    public enum State: String, Sendable {
        case disabled, idle, syncing, offline, error
    }

    public struct Status: Sendable, Equatable {
        public var enabled: Bool
        public var state: State
        public var pending: Int
        public var lastPushedAt: Date?
        public var lastPulledAt: Date?
        public var lastError: String?
    }

    public struct Report: Sendable, Equatable {
        public var pushed = 0
        public var pulled = 0
        public var conflicts = 0
        public var pending = 0
    }

    /// `(done, total, message)` of a running cycle, for `$/progress`.
    public typealias ProgressHandler = @Sendable (Int, Int, String) -> Void

    /// Why a cycle did not complete, for `sync.now`.
    public enum Failure: Error, Sendable, Equatable {
        case notLoggedIn
        case sessionEnded
        case offline(String)
        case refused(String)
        case storage(StorageProblem)
    }

    let configuration: SyncConfiguration
    let store: SyncStore
    let accounts: AccountService
    let client: FirestoreClient
    /// Told when a cycle starts, so the next local change wakes the engine again.
    let journal: SyncJournal?
    private let now: @Sendable () -> Date
    /// The first retry's delay; each failure in a row doubles it, up to ``maxBackoff``.
    private let retryBase: Duration

    private var state: State = .idle
    private var lastError: String?
    /// Consecutive failed cycles; drives the backoff.
    private var failures = 0
    /// Consecutive refusals (403, 400): after ``maxRefusals`` no retry is scheduled.
    private var refusals = 0
    private var running: (id: Int, task: Task<Result<Report, Failure>, Never>)?
    private var cycleCount = 0
    private var timer: Task<Void, Never>?
    private var timerDue: ContinuousClock.Instant?
    private var timerGeneration = 0
    private var lastPull: ContinuousClock.Instant?
    private var closed = false
    /// Firebase refused the session during a cycle (until the next login or logout).
    private var sessionEnded = false

    static let maxRefusals = 3
    /// Tries of a call Firestore aborted for contention (409 ABORTED) before the cycle fails.
    static let maxAbortRetries = 5
    static let debounce = Duration.milliseconds(300)
    static let maxBackoff = Duration.seconds(300)
    /// Documents per query page.
    static let pageSize = 500
    /// Writes per commit, and commits in flight at once. Firestore takes concurrent commits and evaluates
    /// the security rules for each write of a commit in turn: 1,000 writes as ten commits of 100, four at a
    /// time, take about half as long on the emulator as two of 500 (docs/BENCHMARKS.md). Four stays under
    /// the HTTP client's six connections per origin. The commits of one cycle touch distinct documents (the
    /// outbox holds one entry per item), so their order does not matter.
    static let pushBatchSize = 100
    static let pushConcurrency = 4
    /// Budgets per cycle: pages pulled, commits pushed.
    static let maxPullPages = 200
    static let maxPushBatches = 1000
    /// Pulls ask again for changes committed this long before the newest one seen: a commit's server time
    /// is taken when it starts, so one that takes longer to commit could land behind the cursor.
    static let cursorOverlapMicroseconds: Int64 = 5_000_000

    init(
        configuration: SyncConfiguration, store: SyncStore, accounts: AccountService, client: FirestoreClient,
        journal: SyncJournal? = nil, retryBase: Duration = .seconds(1),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.journal = journal
        self.retryBase = retryBase
        self.configuration = configuration
        self.store = store
        self.accounts = accounts
        self.client = client
        self.now = now
    }

    /// The engine for `configuration` over the data directory's database; `journal` is the one the
    /// favorites and account stores record into.
    public static func make(
        configuration: SyncConfiguration, database: MovieStore, accounts: AccountService, journal: SyncJournal,
        http: (any HTTPClient)? = nil
    ) -> SyncEngine {
        let client = FirestoreClient(
            configuration: configuration, http: http ?? SocketHTTPClient(timeoutSeconds: configuration.timeoutSeconds))
        let engine = SyncEngine(
            configuration: configuration, store: SyncStore(database: database.database), accounts: accounts,
            client: client, journal: journal)
        journal.setChangeHandler { [weak engine] in
            guard let engine else { return }
            Task { await engine.localChangeMade() }
        }
        accounts.syncHooks.setBeforeDelete { [weak engine] userID, idToken in
            try await engine?.deleteRemoteData(userID: userID, idToken: idToken)
        }
        return engine
    }

    // MARK: Triggers

    /// At start: a first cycle if someone is logged in.
    public func start() {
        schedule(after: .zero)
    }

    /// A change was committed locally: push ``debounce`` later. The journal tells only the first change
    /// after a cycle began, so a burst of changes makes one push, not one each, and costs them nothing.
    func localChangeMade() {
        refusals = 0
        schedule(after: Self.debounce)
    }

    /// The user changed (login, logout): the state starts over, and a login syncs at once.
    public func userChanged() {
        sessionEnded = false
        failures = 0
        refusals = 0
        lastError = nil
        lastPull = nil
        state = .idle
        schedule(after: .zero)
    }

    /// A list is being read: pull in the background if the last pull is older than the interval. Not
    /// while failing: the backoff's timer is set, and reading a list must not hammer a service that is down.
    public func pullIfStale() {
        if let lastPull, ContinuousClock.now - lastPull < .seconds(configuration.pullInterval) { return }
        guard running == nil, failures == 0, !sessionEnded else { return }
        schedule(after: .zero)
    }

    /// One cycle now (after the one running, if any): what it pushed, pulled and decided.
    public func syncNow(progress: ProgressHandler? = nil) async throws(Failure) -> Report {
        refusals = 0
        let outcome = await cycle(progress: progress)
        return try outcome.get()
    }

    /// Pushes what is pending within `deadline` (a clean exit, a logout); what is left stays queued.
    public func flush(within deadline: Duration) async {
        guard let userID = await accounts.currentUserID(),
              let times = try? await store.times(userID: userID), times.pending > 0
        else { return }
        await Self.race(deadline) { _ = await self.cycle(progress: nil) }
    }

    /// Stops the background work after pushing what it can within the configured deadline.
    public func close() async {
        await flush(within: configuration.exitDeadline)
        closed = true
        timer?.cancel()
        timer = nil
    }

    // MARK: Status

    public func status() async -> Status {
        guard let userID = await accounts.currentUserID() else {
            // A session Firebase ended under a cycle is worth saying; otherwise nobody is logged in.
            return Status(
                enabled: false, state: sessionEnded ? .error : .disabled, pending: 0,
                lastError: sessionEnded ? lastError : nil)
        }
        guard let times = try? await store.times(userID: userID) else {
            return Status(enabled: true, state: .error, pending: 0, lastError: StorageProblem.other.message)
        }
        return Status(
            enabled: true, state: state, pending: times.pending,
            lastPushedAt: times.lastPushedAt.map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) },
            lastPulledAt: times.lastPulledAt.map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) },
            lastError: lastError)
    }

    // MARK: Scheduling

    private func schedule(after delay: Duration) {
        schedule(at: ContinuousClock.now + delay)
    }

    /// Sets the timer for `due`; a sooner one is kept.
    private func schedule(at due: ContinuousClock.Instant) {
        guard !closed else { return }
        if timer != nil, let timerDue, timerDue <= due { return }
        timer?.cancel()
        timerGeneration += 1
        let generation = timerGeneration
        timerDue = due
        timer = Task { [weak self] in
            try? await Task.sleep(until: due, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.timerFired(generation)
        }
    }

    private func timerFired(_ generation: Int) async {
        guard generation == timerGeneration else { return }
        timer = nil
        timerDue = nil
        _ = await cycle(progress: nil)
    }

    /// A cycle is starting: it covers every change made so far, so a timer set for them is not needed
    /// (the cycle sets the next one when it ends).
    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerDue = nil
        timerGeneration += 1
    }

    /// Runs one cycle after the running one (if any), then schedules the next: the periodic pull after a
    /// success, a backoff after a failure worth retrying, nothing after too many refusals.
    private func cycle(progress: ProgressHandler?) async -> Result<Report, Failure> {
        await waitForRunningCycle()
        let task = begin { await $0.performCycle(progress: progress) }
        let outcome = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        switch outcome {
        case .success:
            schedule(after: .seconds(configuration.pullInterval))
        case .failure(.notLoggedIn), .failure(.sessionEnded):
            break
        case .failure(.refused) where refusals >= Self.maxRefusals:
            break
        case .failure:
            schedule(after: backoff())
        }
        return outcome
    }

    /// Waits until no cycle (or account deletion) runs.
    private func waitForRunningCycle() async {
        while let current = running { _ = await current.task.value }
    }

    /// Starts `work` as the running cycle. The task itself clears `running` on the actor before it
    /// completes, so a waiter that resumes finds it cleared (awaiting a finished task does not suspend:
    /// a waiter that had to wait for the starter to clear it would spin, holding the actor).
    private func begin(
        _ work: @escaping @Sendable (isolated SyncEngine) async -> Result<Report, Failure>
    ) -> Task<Result<Report, Failure>, Never> {
        cycleCount += 1
        let id = cycleCount
        let task = Task {
            let outcome = await work(self)
            self.finished(id)
            return outcome
        }
        running = (id, task)
        return task
    }

    private func finished(_ id: Int) {
        if running?.id == id { running = nil }
    }

    /// 1 s, 2 s, 4 s … up to 5 min, with up to a quarter more at random so devices do not retry in step.
    private func backoff() -> Duration {
        let delay = min(retryBase * (1 << min(max(failures - 1, 0), 16)), Self.maxBackoff)
        return delay + delay * Double.random(in: 0...0.25)
    }

    // MARK: The cycle

    /// The ID token a cycle works with, refreshed once when Firestore refuses it.
    private struct Credential {
        var userID: String
        var idToken: String
    }

    private func performCycle(progress: ProgressHandler?) async -> Result<Report, Failure> {
        journal?.cycleStarting()
        cancelTimer()
        let previous = state
        state = .syncing
        do {
            guard let signedIn = try await accounts.syncCredential(forceRefresh: false) else {
                state = .disabled
                return .failure(.notLoggedIn)
            }
            var credential = Credential(userID: signedIn.userID, idToken: signedIn.idToken)
            var report = Report()
            progress?(0, 2, "Pulling remote changes")
            try await pull(&credential, into: &report)
            lastPull = .now
            progress?(1, 2, "Pushing local changes")
            try await push(&credential, into: &report)
            report.pending = try await store.times(userID: credential.userID).pending
            progress?(2, 2, "Done")
            state = .idle
            lastError = nil
            failures = 0
            refusals = 0
            return .success(report)
        } catch {
            return .failure(record(error, previous: previous))
        }
    }

    /// The state and words a failure leaves, and how `sync.now` reports it.
    private func record(_ error: any Error, previous: State) -> Failure {
        failures += 1
        let failure: Failure
        switch error {
        case let error as FirestoreError:
            if case .transport(.cancelled) = error {
                state = previous == .syncing ? .idle : previous
                failures -= 1
                return .offline("Cancelled")
            }
            if case .transport = error {
                state = .offline
                failure = .offline(error.description)
            } else if error.isTransient {
                state = .error
                failure = .offline(error.description)
            } else {
                state = .error
                refusals += 1
                failure = .refused(error.description)
            }
            lastError = error.description
        case MovieError.loginRequired:
            state = .error
            lastError = "The Firebase session has ended; log in again to sync"
            sessionEnded = true
            failure = .sessionEnded
        case MovieError.storage(let problem):
            state = .error
            lastError = problem.message
            failure = .storage(problem)
        case MovieError.upstream(_, true, _):
            state = .offline
            lastError = "The sign-in service cannot be reached to refresh the session"
            failure = .offline(lastError ?? "")
        case is CancellationError:
            state = previous == .syncing ? .idle : previous
            failures -= 1
            return .offline("Cancelled")
        default:
            state = .error
            refusals += 1
            lastError = "The sign-in service refused to refresh the session"
            failure = .refused(lastError ?? "")
        }
        if let lastError { StoreLog.warning("Sync: \(lastError)") }
        return failure
    }

    /// Runs `body` with a valid ID token of the cycle's user, asked for at every call (the provider keeps
    /// it in memory and refreshes it when close to expiry, so a long cycle never sends a stale one); on 401
    /// forces a refresh and runs it once more. Another user logged in meanwhile ends the cycle.
    @discardableResult
    private func authorized<T: Sendable>(
        _ credential: inout Credential, _ body: (String) async throws -> T
    ) async throws -> T {
        func token(forceRefresh: Bool) async throws -> String {
            guard let current = try await accounts.syncCredential(forceRefresh: forceRefresh),
                  current.userID == credential.userID
            else { throw MovieError.loginRequired }
            return current.idToken
        }
        credential.idToken = try await token(forceRefresh: false)
        var attempt = 0
        while true {
            do {
                return try await body(credential.idToken)
            } catch let error as FirestoreError where error.isUnauthenticated && attempt == 0 {
                credential.idToken = try await token(forceRefresh: true)
            } catch let error as FirestoreError where error.isAborted && attempt < Self.maxAbortRetries {
                // Another device's commit held the same documents: a moment later it has finished.
                try await Task.sleep(for: .milliseconds(Int64(50 << attempt) + Int64.random(in: 0...50)))
            }
            attempt += 1
        }
    }

    private func nowMilliseconds() -> Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded(.down)) }

    private func pull(_ credential: inout Credential, into report: inout Report) async throws {
        let uid = credential.userID
        let client = self.client
        let times = try await store.times(userID: uid)
        let after = times.pulledThrough.map { $0 - Self.cursorOverlapMicroseconds }
        var startAfter: (microseconds: Int64, name: String)?
        for _ in 0..<Self.maxPullPages {
            let cursor = startAfter
            let documents = try await authorized(&credential) { token in
                try await client.changedSince(
                    parentPath: SyncDocuments.userPath(uid), collectionID: SyncDocuments.favoritesCollection,
                    field: SyncDocuments.serverTimeField, after: after, startAfter: cursor, limit: Self.pageSize,
                    idToken: token)
            }
            let favorites = documents.compactMap(SyncDocuments.favorite)
            if favorites.count < documents.count {
                StoreLog.warning("Sync: skipped \(documents.count - favorites.count) malformed favorite documents")
            }
            let newest = documents.compactMap { $0.fields?[SyncDocuments.serverTimeField]?.microseconds }.max()
            let applied = try await store.apply(
                userID: uid, favorites: favorites, pulledThrough: newest, at: nowMilliseconds())
            report.pulled += applied.applied
            report.conflicts += applied.conflicts
            guard documents.count == Self.pageSize, let last = documents.last, let name = last.name,
                  let lastTime = last.fields?[SyncDocuments.serverTimeField]?.microseconds
            else { break }
            startAfter = (lastTime, name)
        }
        let profileDocument = try await authorized(&credential) { token in
            try await client.get(SyncDocuments.userPath(uid), idToken: token)
        }
        if let profileDocument {
            if let profile = SyncDocuments.profile(profileDocument) {
                let applied = try await store.apply(userID: uid, profile: profile)
                report.pulled += applied.applied
                report.conflicts += applied.conflicts
            } else {
                StoreLog.warning("Sync: skipped a malformed profile document")
            }
        }
    }

    /// What one commit of a push did: its changes, and the error it failed with.
    private struct PushedBatch: Sendable {
        var changes: [SyncStore.PendingChange]
        var error: (any Error)?
    }

    private func push(_ credential: inout Credential, into report: inout Report) async throws {
        let uid = credential.userID
        let client = self.client
        try await store.queueUnversioned(userID: uid)
        // Up to pushConcurrency commits in flight, over consecutive slices of the outbox. A batch leaves
        // the outbox only once its commit succeeded; after a failure no new batch starts, those in flight
        // finish (their successes are kept) and the cycle fails with the first error, to be retried.
        let batchCredential = credential
        var firstError: (any Error)?
        await withTaskGroup(of: PushedBatch.self) { group in
            var after: Int64 = 0
            var started = 0
            var inFlight = 0
            var exhausted = false
            while true {
                while firstError == nil, !exhausted, inFlight < Self.pushConcurrency, started < Self.maxPushBatches {
                    do {
                        let changes = try await store.pending(userID: uid, after: after, limit: Self.pushBatchSize)
                        guard let last = changes.last else {
                            exhausted = true
                            break
                        }
                        after = last.outboxID
                        started += 1
                        inFlight += 1
                        let writes = changes.map { SyncDocuments.write($0, uid: uid, client: client) }
                        group.addTask {
                            PushedBatch(changes: changes, error: await self.commit(writes, as: batchCredential))
                        }
                    } catch {
                        firstError = error
                    }
                }
                guard let batch = await group.next() else { break }
                inFlight -= 1
                if let error = batch.error {
                    firstError = firstError ?? error
                    continue
                }
                do {
                    try await store.pushed(userID: uid, batch.changes, at: nowMilliseconds())
                    report.pushed += batch.changes.count
                } catch {
                    firstError = firstError ?? error
                }
            }
        }
        if let firstError { throw firstError }
        // Tombstones past their age go, remotely then locally.
        let cutoff = nowMilliseconds() - Int64(configuration.tombstoneMaxAge * 1000)
        let expired = try await store.expiredTombstones(
            userID: uid, before: cutoff, limit: FirestoreClient.maxWritesPerCommit)
        if !expired.isEmpty {
            let writes = expired.map {
                FirestoreClient.Write.delete(name: client.name(SyncDocuments.favoritePath(uid, $0.movieID)))
            }
            try await authorized(&credential) { token in try await client.commit(writes, idToken: token) }
            try await store.forgetTombstones(userID: uid, expired)
        }
    }

    /// Commits `writes` with a token of `credential`'s user (refreshed as ``authorized`` does); the error
    /// it failed with, or nil.
    private func commit(_ writes: [FirestoreClient.Write], as credential: Credential) async -> (any Error)? {
        var credential = credential
        let client = self.client
        do {
            try await authorized(&credential) { token in try await client.commit(writes, idToken: token) }
            return nil
        } catch {
            return error
        }
    }

    // MARK: Deleting an account

    /// Deletes every document of `userID` (favorites, then the profile), with the token the password
    /// check just issued. Background cycles wait meanwhile. Throws `upstream` (retryable) when it cannot.
    func deleteRemoteData(userID: String, idToken: String?) async throws {
        await waitForRunningCycle()
        let client = self.client
        let accounts = self.accounts
        let deletion = Task<Void, any Error> {
            var token = idToken
            if token == nil { token = try await accounts.syncCredential(forceRefresh: false)?.idToken }
            guard let token else { throw MovieError.loginRequired }
            let collection = SyncDocuments.userPath(userID) + "/" + SyncDocuments.favoritesCollection
            var pageToken: String?
            var names: [String] = []
            repeat {
                let page = try await client.listNames(collection, pageSize: 300, pageToken: pageToken, idToken: token)
                names += page.names
                pageToken = page.next
            } while pageToken != nil && names.count < 1_000_000
            names.append(client.name(SyncDocuments.userPath(userID)))
            var start = 0
            while start < names.count {
                let batch = names[start..<min(start + FirestoreClient.maxWritesPerCommit, names.count)]
                try await client.commit(batch.map { .delete(name: $0) }, idToken: token)
                start += batch.count
            }
        }
        // Held as the running cycle, so no background cycle pushes documents back meanwhile.
        let task = begin { _ in
            _ = await deletion.result
            return .success(Report())
        }
        _ = await task.value
        do {
            try await deletion.value
        } catch let error as FirestoreError {
            StoreLog.warning("Sync: the account's cloud data could not be deleted: \(error.description)")
            throw MovieError.upstream(
                httpStatus: { if case .api(let status, _) = error { status } else { 503 } }(),
                retryable: true,
                message: "Your synced data could not be deleted from Cloud Firestore (\(error.description)); "
                    + "the account was kept, try again")
        }
    }

    /// Waits for `work` or `deadline`, whichever ends first; the other is cancelled, not awaited.
    private static func race(_ deadline: Duration, _ work: @escaping @Sendable () async -> Void) async {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let worker = Task {
            await work()
            continuation.finish()
        }
        let clock = Task {
            try? await Task.sleep(for: deadline)
            continuation.finish()
        }
        for await _ in stream {}
        worker.cancel()
        clock.cancel()
    }
}
