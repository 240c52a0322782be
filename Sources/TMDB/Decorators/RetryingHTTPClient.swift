#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPTransport

/// Retries HTTP 429 responses from the wrapped client.
///
/// - With `Retry-After: N` (seconds), waits N seconds and tries again. If N exceeds `maxRetryAfter`,
///   it does not wait at all and returns the 429 at once, so the caller sees the server's full delay
///   in ``TMDBError/rateLimited(retryAfter:)``.
/// - Without the header, waits `initialBackoff`, then twice that, and so on (capped at `maxRetryAfter`).
/// - After `maxAttempts` attempts, the last 429 response is returned.
///
/// Other statuses and transport errors pass through untouched. Cancellation during a wait throws
/// `CancellationError` (from the injected `sleep`).
public struct RetryingHTTPClient: HTTPClient {
    /// Waits for a duration; injectable so tests need not sleep.
    public typealias Sleep = @Sendable (Duration) async throws -> Void

    private let wrapped: any HTTPClient
    /// Total attempts including the first (at least 1).
    public let maxAttempts: Int
    /// The longest wait, in seconds, this client will honour.
    public let maxRetryAfter: Double
    /// The first backoff, in seconds, when `Retry-After` is absent.
    public let initialBackoff: Double
    private let sleep: Sleep

    /// Creates a retrying decorator.
    /// - Parameters:
    ///   - wrapping: the client that performs each attempt.
    ///   - maxAttempts: total attempts including the first; values below 1 become 1.
    ///   - maxRetryAfter: the longest wait in seconds; a longer `Retry-After` is not waited for.
    ///   - initialBackoff: the first wait in seconds when `Retry-After` is absent; doubles each retry.
    ///   - sleep: how to wait; defaults to `Task.sleep(for:)`.
    public init(
        wrapping: any HTTPClient,
        maxAttempts: Int = 3,
        maxRetryAfter: Double = 10,
        initialBackoff: Double = 0.25,
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) }
    ) {
        self.wrapped = wrapping
        self.maxAttempts = max(1, maxAttempts)
        self.maxRetryAfter = max(0, maxRetryAfter)
        self.initialBackoff = max(0, initialBackoff)
        self.sleep = sleep
    }

    /// Sends `request`, retrying while the response is HTTP 429 and attempts remain.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var attempt = 1
        while true {
            let response = try await wrapped.send(request)
            guard response.statusCode == 429, attempt < maxAttempts,
                  let delay = delay(after: response, attempt: attempt)
            else { return response }
            try await sleep(.seconds(delay))
            attempt += 1
        }
    }

    /// Seconds to wait before the next attempt, or `nil` to stop retrying.
    func delay(after response: HTTPResponse, attempt: Int) -> Double? {
        if let retryAfter = RetryAfter.seconds(from: response) {
            return retryAfter <= maxRetryAfter ? retryAfter : nil
        }
        let exponent = Double(min(attempt - 1, 30))
        return min(initialBackoff * pow(2, exponent), maxRetryAfter)
    }
}
