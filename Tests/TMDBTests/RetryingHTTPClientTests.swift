import Foundation
import HTTPTransport
import Testing
@testable import TMDB

@Suite("Retrying HTTP client")
struct RetryingHTTPClientTests {
    private func client(
        _ stub: ScriptedHTTPClient, sleeps: SleepRecorder, maxAttempts: Int = 3, maxRetryAfter: Double = 10
    ) -> TMDBClient {
        let retrying = RetryingHTTPClient(
            wrapping: stub, maxAttempts: maxAttempts, maxRetryAfter: maxRetryAfter, sleep: sleeps.sleep
        )
        return TMDBClient(credential: .apiKey(TestSecrets.apiKey), http: retrying)
    }

    @Test func retriesAfter429HonouringRetryAfter() async throws {
        let stub = ScriptedHTTPClient(
            .json(429, Fixtures.error429, headers: ["Retry-After": "2"]),
            .json(200, Fixtures.genreList)
        )
        let sleeps = SleepRecorder()
        let list = try await client(stub, sleeps: sleeps).send(.movieGenres())
        #expect(list.genres.count == 3)
        #expect(await stub.script.callCount == 2)
        #expect(await sleeps.durations == [.seconds(2)])
    }

    @Test func exhaustedRetriesGiveRateLimited() async {
        let stub = ScriptedHTTPClient(.json(429, Fixtures.error429, headers: ["Retry-After": "1"]))
        let sleeps = SleepRecorder()
        await #expect(throws: TMDBError.rateLimited(retryAfter: 1)) {
            try await client(stub, sleeps: sleeps).send(.popularMovies())
        }
        #expect(await stub.script.callCount == 3)
        #expect(await sleeps.durations == [.seconds(1), .seconds(1)])
    }

    @Test func missingRetryAfterBacksOffExponentially() async {
        let stub = ScriptedHTTPClient(.json(429, Fixtures.error429))
        let sleeps = SleepRecorder()
        await #expect(throws: TMDBError.rateLimited(retryAfter: nil)) {
            try await client(stub, sleeps: sleeps, maxAttempts: 4).send(.popularMovies())
        }
        #expect(await stub.script.callCount == 4)
        #expect(await sleeps.durations == [.milliseconds(250), .milliseconds(500), .seconds(1)])
    }

    @Test func retryAfterBeyondTheBoundIsNotWaitedFor() async {
        let stub = ScriptedHTTPClient(.json(429, Fixtures.error429, headers: ["retry-after": "120"]))
        let sleeps = SleepRecorder()
        await #expect(throws: TMDBError.rateLimited(retryAfter: 120)) {
            try await client(stub, sleeps: sleeps, maxRetryAfter: 5).send(.popularMovies())
        }
        #expect(await stub.script.callCount == 1)
        #expect(await sleeps.durations.isEmpty)
    }

    @Test func otherStatusesAreNotRetried() async {
        let stub = ScriptedHTTPClient(.json(503, Fixtures.error503), .json(200, Fixtures.genreList))
        let sleeps = SleepRecorder()
        await #expect(throws: TMDBError.self) {
            try await client(stub, sleeps: sleeps).send(.movieGenres())
        }
        #expect(await stub.script.callCount == 1)
        #expect(await sleeps.durations.isEmpty)
    }

    @Test func cancelledWaitSurfacesAsCancelled() async {
        let stub = ScriptedHTTPClient(.json(429, Fixtures.error429, headers: ["Retry-After": "1"]))
        let retrying = RetryingHTTPClient(wrapping: stub, sleep: { _ in throw CancellationError() })
        let client = TMDBClient(credential: .apiKey(TestSecrets.apiKey), http: retrying)
        await #expect(throws: TMDBError.cancelled) {
            try await client.send(.movieGenres())
        }
        #expect(await stub.script.callCount == 1)
    }
}
