import Testing
@testable import JSONRPC

@Suite("Framing detection", .tags(.framing))
struct FramingDetectorTests {
    @Test(arguments: ["{", "[", "  \n\t{\"a\":1}", "\r\n[", "\"x\"", "1", "null\n", "true ", "nul{", "Content-Length 2"])
    func jsonMeansNewline(start: String) {
        #expect(FramingDetector.detect(utf8(start)) == .newline)
    }

    @Test(arguments: ["Content-Length: 2\r\n", "content-type: x", "\r\nContent-Length:", "Hello: world"])
    func headerMeansContentLength(start: String) {
        #expect(FramingDetector.detect(utf8(start)) == .contentLength)
    }

    @Test(arguments: ["", " ", "\r\n\t  \n", "C", "  Content-Length", "null"])
    func tooFewBytesAreUndecided(start: String) {
        #expect(FramingDetector.detect(utf8(start)) == nil)
    }

    @Test func kindNamesMatchTheFramings() {
        #expect(FramingDetector.Kind.contentLength.rawValue == ContentLengthFraming().name)
        #expect(FramingDetector.Kind.newline.rawValue == NewlineFraming().name)
    }
}
