import Foundation
import HTTPTransport
@testable import TMDB

/// One scripted outcome of a stub HTTP call.
enum StubOutcome: Sendable {
    case response(HTTPResponse)
    case failure(any Error)

    static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> StubOutcome {
        .response(HTTPResponse(statusCode: status, headers: headers, body: Data(body.utf8)))
    }
}

/// Plays outcomes in order (repeating the last one) and records every request.
actor ScriptedResponses {
    private var outcomes: [StubOutcome]
    private(set) var requests: [HTTPRequest] = []

    init(_ outcomes: [StubOutcome]) {
        self.outcomes = outcomes
    }

    func next(for request: HTTPRequest) throws -> HTTPResponse {
        requests.append(request)
        let outcome = outcomes.count > 1 ? outcomes.removeFirst() : outcomes.first
        switch outcome {
        case .response(let response): return response
        case .failure(let error): throw error
        case nil: throw HTTPTransportError.other(code: -1)
        }
    }

    var callCount: Int { requests.count }
}

struct ScriptedHTTPClient: HTTPClient {
    let script: ScriptedResponses

    init(script: ScriptedResponses) {
        self.script = script
    }

    init(_ outcomes: StubOutcome...) {
        script = ScriptedResponses(outcomes)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await script.next(for: request)
    }
}

/// Records the durations passed to an injected sleep, without sleeping.
actor SleepRecorder {
    private(set) var durations: [Duration] = []

    func record(_ duration: Duration) {
        durations.append(duration)
    }

    nonisolated var sleep: RetryingHTTPClient.Sleep {
        { duration in await self.record(duration) }
    }
}

/// A one-shot gate: `wait()` suspends until `open()` is called or the waiting task is cancelled
/// (so a failing test cannot hang on it).
actor Gate {
    private var isOpen = false
    private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var nextID: UInt64 = 0

    func wait() async {
        if isOpen { return }
        nextID += 1
        let id = nextID
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if isOpen || Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.release(id) }
        }
    }

    func open() {
        isOpen = true
        for waiter in waiters.values {
            waiter.resume()
        }
        waiters.removeAll()
    }

    private func release(_ id: UInt64) {
        waiters.removeValue(forKey: id)?.resume()
    }
}

actor Counter {
    private(set) var value = 0

    func increment() {
        value += 1
    }
}

/// Counts calls (reporting each to `onCall`), then holds every call at the gate before answering.
struct GatedHTTPClient: HTTPClient {
    let gate: Gate
    let calls: Counter
    let response: HTTPResponse
    var onCall: @Sendable () -> Void = {}

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        await calls.increment()
        onCall()
        await gate.wait()
        return response
    }
}

/// Test values.
enum TestSecrets {
    static let apiKey = "0123abcd4567ef89deadbeefcafe0042"
    static let token = "eyJhbGciOiJIUzI1NiJ9.test-token.S1gnatur3"
}

func makeClient(
    _ outcomes: StubOutcome...,
    credential: TMDBCredential = .apiKey(TestSecrets.apiKey)
) -> (TMDBClient, ScriptedResponses) {
    let script = ScriptedResponses(outcomes)
    let client = TMDBClient(credential: credential, http: ScriptedHTTPClient(script: script))
    return (client, script)
}
