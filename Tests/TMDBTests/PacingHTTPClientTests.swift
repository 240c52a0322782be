import Foundation
import HTTPTransport
import Synchronization
import Testing
@testable import TMDB

/// Answers from a script and records when each request arrived.
final class ArrivalRecordingClient: HTTPClient {
    private let state = Mutex<(answers: [HTTPResponse], arrivals: [ContinuousClock.Instant])>(([], []))
    init(_ answers: [HTTPResponse]) { state.withLock { $0.answers = answers } }
    var arrivals: [ContinuousClock.Instant] { state.withLock { $0.arrivals } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        state.withLock { state in
            state.arrivals.append(ContinuousClock.now)
            return state.answers.count > 1 ? state.answers.removeFirst() : state.answers[0]
        }
    }
}

@Suite("Pacing")
struct PacingHTTPClientTests {
    let request = HTTPRequest(url: URL(string: "http://127.0.0.1:1/3/x")!, method: .get, headers: [:])  // safe: literal

    static func response(_ status: Int, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: headers, body: Data())
    }

    /// Only lower bounds: a loaded machine can make the waits longer, never shorter.
    @Test func aBurstGoesAtOnceThenStartsAreSpacedToTheRate() async throws {
        let upstream = ArrivalRecordingClient([Self.response(200)])
        let client = PacingHTTPClient(wrapping: upstream, perSecond: 20, burst: 3)
        for _ in 0..<6 { _ = try await client.send(request) }
        let arrivals = upstream.arrivals
        #expect(arrivals.count == 6)
        // Three at once, then one every 50 ms: the sixth at least 3 × 50 ms after the first.
        #expect(arrivals[5] - arrivals[0] >= .milliseconds(145))
    }

    @Test func aRateLimitHoldsTheNextRequestBackForItsRetryAfter() async throws {
        let upstream = ArrivalRecordingClient([Self.response(429, headers: ["Retry-After": "1"]), Self.response(200)])
        let client = PacingHTTPClient(wrapping: upstream, perSecond: 1000, burst: 5)
        #expect(try await client.send(request).statusCode == 429)
        #expect(try await client.send(request).statusCode == 200)
        let arrivals = upstream.arrivals
        #expect(arrivals[1] - arrivals[0] >= .milliseconds(990))
    }
}
