import Foundation
import Synchronization
import Testing

@testable import MovieCore

/// A catalog source the test scripts: answers, failures, and a gate to hold fetches in flight.
final class ScriptedSource: CatalogSource {
    let kind = CatalogSourceKind.network
    private let state = Mutex(State())

    /// How a scripted fetch fails, as a real source reports it (a `MovieError` naming the request).
    enum Failure {
        case offline, notFound
        case server(httpStatus: Int, retryable: Bool, message: String)
        case unauthorized(String)
        case rateLimited(retryAfter: Double?)

        func error(for request: CatalogRequest) -> MovieError {
            switch self {
            case .offline: return .offlineNotCached(request.subject)
            case .notFound: return .notFound(request.subject)
            case .server(let status, let retryable, let message):
                return .upstream(httpStatus: status, retryable: retryable, message: message)
            case .unauthorized(let message): return .upstreamUnauthorized(message)
            case .rateLimited(let retryAfter): return .rateLimited(retryAfter: retryAfter)
            }
        }
    }

    struct State {
        var failure: Failure?
        var calls = 0
        var title = "First"
    }

    var calls: Int { state.withLock { $0.calls } }
    func fail(with error: Failure?) { state.withLock { $0.failure = error } }
    func retitle(_ title: String) { state.withLock { $0.title = title } }

    func fetch(_ request: CatalogRequest) async throws -> CatalogPayload {
        let (failure, title) = state.withLock { state -> (Failure?, String) in
            state.calls += 1
            return (state.failure, state.title)
        }
        try await Task.sleep(for: .milliseconds(1))  // a real suspension, so concurrent callers overlap
        if let failure { throw failure.error(for: request) }
        switch request {
        case .genres: return .genres([Genre(id: 28, name: title)])
        case .popular(let page, _, _), .byGenre(_, let page, _, _):
            return .page(MoviePage(page: page, totalPages: 9000, totalResults: 180_000, results: []))
        default:
            throw MovieError.notFound(request.subject)
        }
    }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

@Suite struct MovieRepositoryTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("repo-\(UUID().uuidString)")
    let source = ScriptedSource()
    let clock = TestClock()

    func makeRepository(offlineWindow: TimeInterval = 15) throws -> MovieRepository {
        let store = try MovieStore(directory: DataDirectory(path: directory.path))
        let clock = self.clock
        return MovieRepository(
            source: source, cache: CatalogCache(database: store.database), offlineWindow: offlineWindow,
            now: { clock.now })
    }

    @Test func networkFirstStoresAndFallsBackToTheCacheWhenOffline() async throws {
        let repository = try makeRepository()
        let fresh = try await repository.genres(language: "en")
        #expect(fresh.source == .network && fresh.value == [Genre(id: 28, name: "First")])
        source.fail(with: .offline)
        let cached = try await repository.genres(language: "en")
        #expect(cached.source == .cache && cached.value == fresh.value && cached.fetchedAt == fresh.fetchedAt)
        #expect(cached.stale == false)
    }

    @Test func offlineWithNothingCachedNamesWhatIsMissing() async throws {
        let repository = try makeRepository()
        source.fail(with: .offline)
        await #expect(throws: MovieError.offlineNotCached("popular movies page 2")) {
            try await repository.page(.popular(page: 2, language: nil, region: nil))
        }
    }

    @Test func withinTheOfflineWindowTheNetworkIsNotAskedAgain() async throws {
        let repository = try makeRepository(offlineWindow: 30)
        _ = try await repository.genres(language: nil)
        source.fail(with: .offline)
        _ = try await repository.genres(language: nil)  // fails over: starts the window
        let callsAfterFailure = source.calls
        clock.advance(5)
        _ = try await repository.genres(language: nil)
        #expect(await repository.isOffline)
        // At most the one background re-check may have reached the source.
        #expect(source.calls <= callsAfterFailure + 1)
        clock.advance(60)
        #expect(await repository.isOffline == false)
    }

    @Test func cachedAnswersBecomeStaleAfterTheirTimeToLive() async throws {
        let repository = try makeRepository()
        _ = try await repository.genres(language: nil)
        clock.advance(25 * 3600)
        let answer = try await repository.genres(language: nil, policy: .cacheOnly)
        #expect(answer.source == .cache && answer.stale)
    }

    @Test func cacheFirstUsesAFreshCopyAndRefetchesAnOldOne() async throws {
        let repository = try makeRepository()
        _ = try await repository.genres(language: nil)
        source.retitle("Second")
        #expect(try await repository.genres(language: nil, policy: .cacheFirst).value.first?.name == "First")
        clock.advance(25 * 3600)
        let refreshed = try await repository.genres(language: nil, policy: .cacheFirst)
        #expect(refreshed.source == .network && refreshed.value.first?.name == "Second")
    }

    @Test func upstreamErrorsMapToTheDomain() async throws {
        let repository = try makeRepository()
        source.fail(with: .server(httpStatus: 503, retryable: true, message: "TMDB answered HTTP 503"))
        await #expect(throws: MovieError.upstream(httpStatus: 503, retryable: true, message: "TMDB answered HTTP 503")) {
            try await repository.genres(language: "fr")
        }
        source.fail(with: .unauthorized("no"))
        await #expect(throws: MovieError.upstreamUnauthorized("no")) { try await repository.genres(language: "fr") }
        source.fail(with: .rateLimited(retryAfter: 3))
        await #expect(throws: MovieError.rateLimited(retryAfter: 3)) { try await repository.genres(language: "fr") }
        source.fail(with: nil)
        await #expect(throws: MovieError.notFound("movie 7")) {
            try await repository.details(.details(movieID: 7, language: nil))
        }
    }

    @Test func identicalConcurrentRequestsShareOneFetch() async throws {
        let repository = try makeRepository()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask { _ = try await repository.page(.popular(page: 3, language: nil, region: nil)) }
            }
            try await group.waitForAll()
        }
        #expect(source.calls < 10)
    }

    @Test func cacheKeysHoldEveryParameterThatChangesTheAnswer() {
        let keys: Set<String> = [
            CatalogRequest.popular(page: 1, language: "en", region: nil).cacheKey,
            CatalogRequest.popular(page: 1, language: "de", region: nil).cacheKey,
            CatalogRequest.popular(page: 2, language: "en", region: nil).cacheKey,
            CatalogRequest.popular(page: 1, language: "en", region: "US").cacheKey,
            CatalogRequest.byGenre(genreID: 28, page: 1, language: "en", region: nil).cacheKey,
            CatalogRequest.byGenre(genreID: 12, page: 1, language: "en", region: nil).cacheKey,
        ]
        #expect(keys.count == 6)
    }

    @Test func answersHeldInMemoryComeWithoutASuspension() async throws {
        // A read answered from memory must not hop to the repository's actor and back: on the reading
        // thread that hop is two thread wake-ups, most of a request's time.
        let demo = MovieRepository(source: DemoCatalog.embedded, cache: nil)
        #expect(Self.completesWithoutSuspending { _ = try await demo.genres(language: nil) })
        #expect(Self.completesWithoutSuspending { _ = try await demo.page(.popular(page: 2, language: nil, region: nil)) })
        let movieID = try #require(try await demo.page(.popular(page: 1, language: nil, region: nil)).value.results.first).id
        #expect(Self.completesWithoutSuspending { _ = try await demo.details(.details(movieID: movieID, language: nil)) })
        #expect(Self.completesWithoutSuspending { _ = try await demo.page(.trending(window: .week, page: 1, language: nil)) })
        // A search queries the demo's SQLite index: off the caller's thread.
        #expect(!Self.completesWithoutSuspending { _ = try await demo.search(MovieSearch(query: "the")) })

        let repository = try makeRepository()
        _ = try await repository.genres(language: nil)
        #expect(Self.completesWithoutSuspending { _ = try await repository.genres(language: nil, policy: .cacheFirst) })
        // networkFirst asks TMDB: that one goes through the actor.
        #expect(!Self.completesWithoutSuspending { _ = try await repository.genres(language: nil) })
    }

    /// Whether `operation` finishes, without an error, before its first suspension point: `Task.immediate`
    /// runs it on this thread until it suspends.
    private static func completesWithoutSuspending(_ operation: @escaping @Sendable () async throws -> Void) -> Bool {
        let finished = Mutex(false)
        Task.immediate {
            try await operation()
            finished.withLock { $0 = true }
        }
        return finished.withLock { $0 }
    }

    @Test func totalPagesIsClampedTo500() async throws {
        let repository = try makeRepository()
        #expect(try await repository.page(.popular(page: 1, language: nil, region: nil)).value.totalPages == 500)
    }
}

@Suite struct DemoCatalogTests {
    let demo = DemoCatalog.embedded

    @Test func hasEveryGenreAndAFullPageForEach() async throws {
        #expect(demo.genres.count == 19)
        #expect(demo.movieCount >= 150)
        for genre in demo.genres {
            guard case .page(let page) = try await demo.fetch(.byGenre(genreID: genre.id, page: 1, language: nil, region: nil))
            else { Issue.record("not a page"); continue }
            #expect(page.results.count == 20, "genre \(genre.name)")
        }
    }

    @Test func popularIsOrderedAndPaged() async throws {
        guard case .page(let first) = try await demo.fetch(.popular(page: 1, language: nil, region: nil)),
            case .page(let second) = try await demo.fetch(.popular(page: 2, language: nil, region: nil))
        else { Issue.record("not pages"); return }
        #expect(first.results.count == 20 && first.totalPages >= 3)
        let popularity = (first.results + second.results).map(\.popularity)
        #expect(popularity == popularity.sorted(by: >))
        #expect(Set(first.results.map(\.id)).isDisjoint(with: second.results.map(\.id)))
    }

    @Test func aSearchIsAnsweredInMemoryOnlyOnceItWasFetched() async throws {
        let search = CatalogRequest.search(MovieSearch(query: "kept-answer test \(UUID().uuidString)"))
        #expect(try demo.answerInMemory(search) == nil)
        let fetched = try await demo.fetch(search)
        #expect(try demo.answerInMemory(search) == fetched)
        let genre = CatalogRequest.byGenre(genreID: 28, page: 2, language: nil, region: nil)
        #expect(try demo.answerInMemory(genre) == (try await demo.fetch(genre)))
        #expect(throws: MovieError.notFound("movie -5")) { try demo.answerInMemory(.details(movieID: -5, language: nil)) }
    }

    @Test func unknownMovieIsNotFound() async {
        await #expect(throws: MovieError.notFound("movie -5")) { try await demo.fetch(.details(movieID: -5, language: nil)) }
    }
}

@Suite struct TimestampTests {
    @Test func formatsUTCWithMilliseconds() {
        #expect(Timestamp.string(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: 1_764_490_000.1234)) == "2025-11-30T08:06:40.123Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }

    @Test func parsesWithAndWithoutFractions() throws {
        let parsed = try #require(Timestamp.parse("2025-11-30T08:06:40.123Z"))
        #expect(abs(parsed.timeIntervalSince1970 - 1_764_490_000.123) < 0.0005)
        #expect(Timestamp.parse("2025-11-30T08:06:40Z") == Date(timeIntervalSince1970: 1_764_490_000))
        #expect(Timestamp.parse("yesterday") == nil)
    }
}

/// The seam the local search index plugs into: `useOfflineSearch`.
@Suite struct OfflineSearchSeamTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seam-\(UUID().uuidString)")
    let source = ScriptedSource()

    static let indexed = MoviePage(page: 1, totalPages: 1, totalResults: 1, results: [
        MovieSummary(
            id: 9, title: "Léon", originalTitle: "Léon", overview: "", releaseDate: "1994-09-14", genreIds: [80],
            voteAverage: 8, voteCount: 1, popularity: 1, adult: false, originalLanguage: "fr", posterPath: nil,
            backdropPath: nil),
    ])

    func makeRepository() throws -> MovieRepository {
        let store = try MovieStore(directory: DataDirectory(path: directory.path))
        return MovieRepository(
            source: source, cache: CatalogCache(database: store.database),
            offlineSearch: { search in
                #expect(search.query == "leon")
                return Self.indexed
            })
    }

    @Test func theIndexAnswersWhenTMDBCannotAndSaysItMayBeIncomplete() async throws {
        let repository = try makeRepository()
        source.fail(with: .offline)
        let offline = try await repository.search(MovieSearch(query: "leon"))
        #expect(offline.source == .cache && offline.complete == false && offline.value == Self.indexed)
        source.fail(with: .server(httpStatus: 503, retryable: true, message: "down"))
        #expect(try await repository.search(MovieSearch(query: "leon")).complete == false)
        let cacheOnly = try await repository.search(MovieSearch(query: "leon"), policy: .cacheOnly)
        #expect(cacheOnly.complete == false)
        await #expect(throws: MovieError.upstream(httpStatus: 503, retryable: true, message: "down")) {
            try await repository.search(MovieSearch(query: "leon"), policy: .networkOnly)
        }
    }
}

/// A source whose fetches wait at a gate until the test opens it; it counts fetches and cancellations.
final class GatedSource: CatalogSource {
    let kind = CatalogSourceKind.network
    private let state = Mutex((calls: 0, cancelled: 0, open: false, waiting: [CheckedContinuation<Void, Never>]()))

    var calls: Int { state.withLock { $0.calls } }
    var cancelled: Int { state.withLock { $0.cancelled } }

    func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    func fetch(_ request: CatalogRequest) async throws -> CatalogPayload {
        state.withLock { $0.calls += 1 }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let open = state.withLock { state -> Bool in
                    if !state.open { state.waiting.append(waiter) }
                    return state.open
                }
                if open { waiter.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.cancelled += 1
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in waiting { waiter.resume() }
        }
        try Task.checkCancellation()
        return .genres([Genre(id: 28, name: "Action")])
    }
}

@Suite(.timeLimit(.minutes(10))) struct SharedFetchCancellationTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)")

    func makeRepository(_ source: GatedSource) throws -> MovieRepository {
        let store = try MovieStore(directory: DataDirectory(path: directory.path))
        return MovieRepository(source: source, cache: CatalogCache(database: store.database))
    }

    /// Yields until `condition` holds (reached by other tasks making progress, never by time passing).
    func waitUntil(_ condition: () async -> Bool) async {
        while !(await condition()) { await Task.yield() }
    }

    @Test func cancellingOneOfTwoCoalescedCallersLeavesTheFetchToTheOther() async throws {
        let source = GatedSource()
        let repository = try makeRepository(source)
        let key = CatalogRequest.genres(language: nil).cacheKey
        let first = Task { try await repository.genres(language: nil) }
        let second = Task { try await repository.genres(language: nil) }
        await waitUntil { await repository.fetchWaiterCount(key) == 2 }
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        await waitUntil { await repository.fetchWaiterCount(key) == 1 }
        source.open()
        let answer = try await second.value
        #expect(answer.value == [Genre(id: 28, name: "Action")] && answer.source == .network)
        #expect(source.calls == 1 && source.cancelled == 0)
    }

    @Test func cancellingTheLastCallerCancelsTheFetch() async throws {
        let source = GatedSource()
        let repository = try makeRepository(source)
        let key = CatalogRequest.genres(language: nil).cacheKey
        let only = Task { try await repository.genres(language: nil) }
        await waitUntil { await repository.fetchWaiterCount(key) == 1 }
        only.cancel()
        await #expect(throws: CancellationError.self) { try await only.value }
        await waitUntil { source.cancelled == 1 }
        // A later caller starts a fetch of its own.
        source.open()
        #expect(try await repository.genres(language: nil).source == .network)
        #expect(source.calls == 2)
    }
}
