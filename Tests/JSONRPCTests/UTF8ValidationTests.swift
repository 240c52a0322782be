import Testing

@testable import JSONRPC

/// `UTF8Validation` must accept exactly what `String(validating:as:)` accepts.
@Suite struct UTF8ValidationTests {
    static func standard(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    @Test func edgesDecideAsTheStandardLibrary() {
        var cases: [[UInt8]] = [
            [], Array("plain ascii, longer than one word of eight bytes".utf8), Array("naïve — 東京 🎬".utf8),
            [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80],
            [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF],
            [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0xFF], [0x80], [0xE2, 0x82], [0xE2, 0x82, 0x41], [0xF0, 0x9F, 0x8E], [0x41, 0xC3],
        ]
        // Each also after an ASCII run that ends mid-word, so the word loop hands over at every offset.
        for prefix in 0..<10 {
            for bytes in cases.prefix(23) { cases.append(Array(repeating: UInt8(ascii: "a"), count: prefix) + bytes) }
        }
        for bytes in cases {
            #expect(UTF8Validation.isValid(bytes) == Self.standard(bytes), "\(bytes)")
        }
    }

    @Test func randomBytesDecideAsTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &generator)
            // Mostly bytes near the interesting ranges, so that valid sequences come up too.
            let bytes = (0..<length).map { _ -> UInt8 in
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: UInt8.random(in: 0x20...0x7E, using: &generator)
                case 1: UInt8.random(in: 0x80...0xBF, using: &generator)
                case 2: UInt8.random(in: 0xC0...0xF7, using: &generator)
                default: UInt8.random(in: 0...0xFF, using: &generator)
                }
            }
            #expect(UTF8Validation.isValid(bytes) == Self.standard(bytes), "\(bytes)")
        }
    }
}
