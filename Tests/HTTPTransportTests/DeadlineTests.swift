import Testing

@testable import HTTPTransport

@Suite("Deadline")
struct DeadlineTests {
    @Test("a passed deadline is URLError.timedOut; the time left rounds up; absurd timeouts are clamped")
    func deadlines() throws {
        #expect(throws: HTTPTransportError.offline(code: -1001)) {
            try Deadline(secondsFromNow: 0).remainingMilliseconds()
        }
        #expect(throws: HTTPTransportError.offline(code: -1001)) {
            try Deadline(secondsFromNow: -5).remainingMilliseconds()
        }
        // Far enough ahead that a descheduled thread cannot see it pass (0.3 s could, on a loaded machine).
        let soon = try Deadline(secondsFromNow: 30.0003).remainingMilliseconds()
        #expect((1...30_001).contains(soon))
        #expect(try Deadline(secondsFromNow: 1e300).remainingMilliseconds() == Int32.max)
        #expect(try Deadline(secondsFromNow: .infinity).remainingMilliseconds() == Int32.max)
    }
}
