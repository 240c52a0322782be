import Foundation
import HTTPTransport
import Testing
@testable import TMDB

@Suite("Coalescing HTTP client")
struct CoalescingHTTPClientTests {
    private let okResponse = HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"],
                                          body: Data(Fixtures.genreList.utf8))

    private func request(_ path: String, headers: [String: String] = ["Accept": "application/json"]) throws
        -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: "https://api.themoviedb.org/3\(path)")), headers: headers)
    }

    private enum Event: Sendable {
        case joined(waiters: Int)
        case upstreamCalled
    }

    @Test(.timeLimit(.minutes(1)))
    func identicalConcurrentRequestsShareOneCall() async throws {
        let callers = 8
        let gate = Gate()
        let calls = Counter()
        let (events, emit) = AsyncStream.makeStream(of: Event.self)
        let upstream = GatedHTTPClient(
            gate: gate, calls: calls, response: okResponse, onCall: { emit.yield(.upstreamCalled) }
        )
        let client = CoalescingHTTPClient(wrapping: upstream, onJoin: { emit.yield(.joined(waiters: $0)) })
        let request = try request("/genre/movie/list?api_key=k")

        let responses = try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            for _ in 0..<callers {
                group.addTask { try await client.send(request) }
            }
            // Hold the single upstream call until every caller has joined it. A second upstream call
            // means coalescing failed: stop waiting and let the assertions below report it.
            var joins = 0
            var upstreamCalls = 0
            var mostWaiters = 0
            for await event in events {
                switch event {
                case .joined(let waiters):
                    joins += 1
                    mostWaiters = max(mostWaiters, waiters)
                case .upstreamCalled:
                    upstreamCalls += 1
                }
                if joins == callers || upstreamCalls > 1 { break }
            }
            #expect(mostWaiters == callers)
            await gate.open()
            var collected: [HTTPResponse] = []
            for try await response in group {
                collected.append(response)
            }
            return collected
        }

        #expect(responses.count == callers)
        #expect(responses.allSatisfy { $0 == okResponse })
        #expect(await calls.value == 1)
        #expect(await client.inFlightCount == 0)
    }

    @Test func differentRequestsAreNotShared() async throws {
        let stub = ScriptedHTTPClient(.response(okResponse))
        let client = CoalescingHTTPClient(wrapping: stub)
        async let first = client.send(try request("/movie/1"))
        async let second = client.send(try request("/movie/2"))
        async let third = client.send(try request("/movie/1", headers: ["Accept": "text/plain"]))
        _ = try await (first, second, third)
        #expect(await stub.script.callCount == 3)
    }

    @Test func headerNameCaseDoesNotMatter() throws {
        let lower = try request("/movie/1", headers: ["accept": "application/json"])
        let upper = try request("/movie/1", headers: ["ACCEPT": "application/json"])
        #expect(InFlightRequests.Key(lower) == InFlightRequests.Key(upper))
    }

    @Test func finishedRequestsAreNotCached() async throws {
        let stub = ScriptedHTTPClient(.response(okResponse))
        let client = CoalescingHTTPClient(wrapping: stub)
        let request = try request("/movie/latest")
        _ = try await client.send(request)
        _ = try await client.send(request)
        #expect(await stub.script.callCount == 2)
    }

    @Test func nonGETRequestsPassThrough() async throws {
        let stub = ScriptedHTTPClient(.response(okResponse))
        let client = CoalescingHTTPClient(wrapping: stub)
        var post = try request("/movie/1/rating")
        post.method = .post
        post.body = Data("{}".utf8)
        async let first = client.send(post)
        async let second = client.send(post)
        _ = try await (first, second)
        #expect(await stub.script.callCount == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelledCallerStopsWaitingWhileOthersGetTheResponse() async throws {
        let gate = Gate()
        let calls = Counter()
        let (events, emit) = AsyncStream.makeStream(of: Event.self)
        let upstream = GatedHTTPClient(
            gate: gate, calls: calls, response: okResponse, onCall: { emit.yield(.upstreamCalled) }
        )
        let client = CoalescingHTTPClient(wrapping: upstream, onJoin: { emit.yield(.joined(waiters: $0)) })
        let request = try request("/movie/popular?page=1")
        let cancelled = Task { try await client.send(request) }
        let patient = Task { try await client.send(request) }

        try await withTaskCancellationHandler {
            var joins = 0
            var upstreamCalls = 0
            for await event in events {
                if case .joined = event { joins += 1 } else { upstreamCalls += 1 }
                if joins == 2 || upstreamCalls > 1 { break }
            }

            cancelled.cancel()
            // Resolves before the gate opens: the cancelled caller does not wait for the shared call.
            await #expect(throws: CancellationError.self) { try await cancelled.value }

            await gate.open()
            let response = try await patient.value
            #expect(response == okResponse)
            #expect(await calls.value == 1)
        } onCancel: {
            cancelled.cancel()
            patient.cancel()
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func sharedCallIsCancelledWhenEveryCallerIsCancelled() async throws {
        let gate = Gate()
        let calls = Counter()
        let (events, emit) = AsyncStream.makeStream(of: Event.self)
        let upstream = GatedHTTPClient(
            gate: gate, calls: calls, response: okResponse, onCall: { emit.yield(.upstreamCalled) }
        )
        let client = CoalescingHTTPClient(wrapping: upstream, onJoin: { emit.yield(.joined(waiters: $0)) })
        let request = try request("/movie/latest")
        let first = Task { try await client.send(request) }
        let second = Task { try await client.send(request) }
        var joins = 0
        var upstreamCalls = 0
        for await event in events {
            if case .joined = event { joins += 1 } else { upstreamCalls += 1 }
            if joins == 2 && upstreamCalls == 1 || upstreamCalls > 1 { break }
        }
        first.cancel()
        second.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(await calls.value == 1)
        // The entry is gone, so the next identical request starts a fresh upstream call.
        #expect(await client.inFlightCount == 0)
        await gate.open()
        _ = try await client.send(request)
        #expect(await calls.value == 2)
    }
}
