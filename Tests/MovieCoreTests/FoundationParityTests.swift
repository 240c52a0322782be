import Foundation
import HTTPTransport
import Testing

@testable import MovieCore

/// The modules link FoundationEssentials only; these check each replacement for a Foundation (corelibs) API
/// against the API itself, which the tests still link.
@Suite("Parity with the Foundation APIs the modules no longer link")
struct FoundationParityTests {
    static let samples = [
        "", "plain", "  padded\t", "\n\u{3000}ideographic space\u{00A0}", "Amélie", "Ame\u{301}lie", "Straße",
        "Ærø ØRSTED", "ĞÜŞİÖÇ", "Ελληνικά Άλφα", "ΐ ς", "Ёлка й", "Việt Nam", "한국어 영화", "日本映画", "e\u{0308}\u{0301}",
        "a+b&c=d/e?f#g%", "tab\there", "emoji 🎬👍🏽", "ﬁ ligature", "Ǆ Ǳ", "ǅungla", "\u{1E9E}", "İstanbul",
    ]

    @Test func titleSortKeyFoldsAsFoundationDoesForLatinGreekAndCyrillic() {
        for text in Self.samples {
            let foundation = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            // Foundation's case folding also splits ligatures (ﬁ → fi), which lowercasing keeps whole.
            guard text != "ﬁ ligature" else { continue }
            #expect(DemoCatalog.titleSortKey(text) == foundation, "\(text.debugDescription)")
        }
        for movie in DemoCatalog.embedded.data.movies {
            let foundation = movie.title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            #expect(DemoCatalog.titleSortKey(movie.title) == foundation, "\(movie.title)")
        }
    }

    @Test func passwordsAreNormalizedToNFCAsFoundationDoes() {
        for text in Self.samples {
            #expect(text._nfcCodeUnits == Array(text.precomposedStringWithCanonicalMapping.utf8), "\(text.debugDescription)")
        }
    }

    @Test func percentEncodingMatchesFoundation() {
        var unreserved = CharacterSet()
        unreserved.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for text in Self.samples {
            #expect(PercentEncoding.encode(text, keeping: PercentEncoding.isASCIIAlphanumeric)
                == text.addingPercentEncoding(withAllowedCharacters: .alphanumerics), "\(text.debugDescription)")
            #expect(PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
                == text.addingPercentEncoding(withAllowedCharacters: unreserved), "\(text.debugDescription)")
        }
    }

    @Test func trimmingMatchesFoundation() {
        for text in Self.samples + [" \n ", "\u{2028}x\u{2029}", "\u{85}next line\u{85}"] {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                    "\(text.debugDescription)")
        }
    }

    @Test(arguments: [
        // Not "a" or "a/": Foundation 6.3 on Linux traps in deletingLastPathComponent for a lone relative name.
        "", "/", "/a", "/a/", "/a/b", "/a/b/", "a/b", "a//b", "/a/b.png", "a.b/c", ".hidden", "a/.x",
        "a/b.", "/tmp/x.tar.gz", "relative/dir/file.JPG",
    ])
    func pathArithmeticMatchesNSString(_ path: String) {
        let ns = path as NSString
        #expect(FilePaths.parent(of: path) == ns.deletingLastPathComponent, "\(path)")
        #expect(FilePaths.pathExtension(of: path) == ns.pathExtension, "\(path)")
        for component in ["c", "c.d", ".e"] where !path.contains("//") {
            #expect(FilePaths.appending(component, to: path) == ns.appendingPathComponent(component), "\(path)")
        }
    }

    /// The bytes written in place are the string's, and `isWritable` marks where `write` stops.
    @Test func timestampsWrittenInPlaceAreTheirStrings() {
        for millis: Int64 in [0, 1, -1, 1_796_026_200_123, Timestamp.minimumMillis, Timestamp.maximumMillis,
                              951_782_400_000, -86_400_001] {
            #expect(Timestamp.isWritable(millis: millis))
            var bytes = [UInt8](repeating: 0, count: Timestamp.length)
            bytes.withUnsafeMutableBufferPointer { Timestamp.write(millis: millis, into: $0) }
            #expect(String(decoding: bytes, as: UTF8.self) == Timestamp.string(millis: millis), "\(millis)")
        }
        #expect(Timestamp.string(millis: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(!Timestamp.isWritable(millis: Timestamp.minimumMillis - 1))
        #expect(!Timestamp.isWritable(millis: Timestamp.maximumMillis + 1))
    }

    @Test func outOfRangeTimestampsAreWrittenAsPrintfWrites() {
        for millis: Int64 in [Timestamp.minimumMillis - 1, -62_200_000_000_000, -90_000_000_000_000,
                              Timestamp.maximumMillis + 1, 400_000_000_000_000] {
            var seconds = time_t(millis >= 0 ? millis / 1000 : (millis - 999) / 1000)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec),
                Int(millis - Int64(seconds) * 1000))
            #expect(Timestamp.string(millis: millis) == expected, "\(millis)")
        }
    }
}
