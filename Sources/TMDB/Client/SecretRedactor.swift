#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Removes secrets (the TMDB credential) from text before it goes into an error or a log line.
///
/// Upstream messages and URLs may echo a secret in any form, or part of one (a message cut short ends in a
/// prefix of the key), so a secret is found in every form below, whole or as any fragment of at least
/// ``fragmentLength`` characters (the whole secret when it is shorter):
/// - as given, compared without regard to ASCII case;
/// - percent-encoded, upper- or lowercase hex, fully or partly, once or more (`%2561`);
/// - hex-encoded, and base64 (standard and URL-safe, at each of the three byte alignments).
///
/// Text is read as runs of the characters that can carry such a form (letters, digits, `-._~%+/=`); a run
/// that holds a fragment is replaced whole by ``placeholder``. Exact occurrences of a secret containing
/// other characters are replaced as well.
public struct SecretRedactor: Sendable {
    /// What every occurrence of a secret is replaced with.
    public static let placeholder = "<redacted>"
    /// The shortest fragment of a secret that is redacted: long enough that ordinary words do not match,
    /// short enough that what is left of a cut-off key (at most 7 characters) tells little.
    public static let fragmentLength = 8

    /// What `redact` compares text with, built at its first call: every client holds a redactor from its
    /// start, and building the tables (a set of byte windows) took a million instructions, a quarter of the
    /// start-up before the first answer, for text that is redacted only when something fails.
    private let tables: LazyTables

    private struct Tables: Sendable {
        /// Every secret and its percent-encoded forms, for exact replacement (longest first).
        let exactForms: [String]
        /// Every window of ``fragmentLength`` ASCII-lowercased bytes of every form of every secret, and the
        /// windows' lengths (shorter for a short secret).
        let fragments: Set<[UInt8]>
        let windowLengths: [Int]
    }

    private final class LazyTables: Sendable {
        let secrets: [String]
        private let built = Mutex<Tables?>(nil)

        init(secrets: [String]) { self.secrets = secrets.filter { !$0.isEmpty } }

        var value: Tables {
            built.withLock { built in
                if let built { return built }
                let tables = SecretRedactor.makeTables(secrets)
                built = tables
                return tables
            }
        }
    }

    /// Creates a redactor for the given secrets. Empty strings are ignored.
    public init(secrets: [String]) {
        tables = LazyTables(secrets: secrets)
    }

    private static func makeTables(_ secrets: [String]) -> Tables {
        var exact: [String] = []
        var fragments: Set<[UInt8]> = []
        var lengths: Set<Int> = []
        for secret in secrets {
            exact.append(secret)
            let encoded = QueryEncoding.escape(secret)
            if encoded != secret {
                exact.append(encoded)
            }
            for form in Self.encodedForms(of: secret) {
                let bytes = Self.lowercased(Array(form.utf8))
                let length = min(Self.fragmentLength, bytes.count)
                guard length > 0 else { continue }
                lengths.insert(length)
                for start in 0...(bytes.count - length) {
                    fragments.insert(Array(bytes[start..<(start + length)]))
                }
            }
        }
        return Tables(exactForms: exact.sorted { $0.count > $1.count }, fragments: fragments, windowLengths: lengths.sorted())
    }

    /// Creates a redactor for the secret inside `credential`.
    public init(credential: TMDBCredential) {
        self.init(secrets: [credential.secret])
    }

    /// Returns `text` with every secret, and every run holding a fragment of one, replaced by ``placeholder``.
    public func redact(_ text: String) -> String {
        guard !self.tables.secrets.isEmpty else { return text }
        let tables = self.tables.value
        var result = text
        for secret in tables.exactForms {
            result = Self.replacingIgnoringASCIICase(secret, in: result)
        }
        var output = ""
        var run: [UInt8] = []
        func flushRun() {
            guard !run.isEmpty else { return }
            output += holdsFragment(run, tables) ? Self.placeholder : String(decoding: run, as: UTF8.self)
            run.removeAll(keepingCapacity: true)
        }
        for scalar in result.unicodeScalars {
            if scalar.isASCII, Self.isRunCharacter(UInt8(scalar.value)) {
                run.append(UInt8(scalar.value))
            } else {
                flushRun()
                output.unicodeScalars.append(scalar)
            }
        }
        flushRun()
        return output
    }

    /// Whether `run`, or what percent-decoding makes of it (up to three times), contains a fragment.
    private func holdsFragment(_ run: [UInt8], _ tables: Tables) -> Bool {
        var form = Self.lowercased(run)
        for _ in 0..<4 {
            if Self.containsFragment(form, tables) { return true }
            let decoded = Self.lowercased(Self.percentDecoded(form))
            guard decoded != form else { return false }
            form = decoded
        }
        return false
    }

    private static func containsFragment(_ bytes: [UInt8], _ tables: Tables) -> Bool {
        for length in tables.windowLengths where bytes.count >= length {
            for start in 0...(bytes.count - length) where tables.fragments.contains(Array(bytes[start..<(start + length)])) {
                return true
            }
        }
        return false
    }

    /// The secret as given, hex, and base64 in both alphabets at each alignment (the characters that do not
    /// depend on the neighbouring bytes).
    private static func encodedForms(of secret: String) -> [String] {
        let bytes = Array(secret.utf8)
        var forms = [secret, Self.lowercaseHex(bytes)]
        for alignment in 0..<3 {
            let padded = Data(repeating: 0, count: alignment) + Data(bytes)
            var base64 = Array(padded.base64EncodedString().utf8)
            // Leading characters carry the padding bytes, trailing ones whatever comes after the secret.
            let leading = alignment == 0 ? 0 : 4
            let trailing = min(base64.count - leading, 4)
            base64 = Array(base64[leading..<(base64.count - trailing)])
            let standard = String(decoding: base64, as: UTF8.self)
            forms.append(standard)
            forms.append(standard.replacing("+", with: "-").replacing("/", with: "_"))
        }
        return forms.filter { !$0.isEmpty }
    }

    private static func lowercaseHex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// `text` with every occurrence of `secret` replaced by ``placeholder``, ASCII letters matched in either
    /// case (API keys and tokens are ASCII; other bytes must match exactly).
    private static func replacingIgnoringASCIICase(_ secret: String, in text: String) -> String {
        let needle = lowercased(Array(secret.utf8))
        let haystack = Array(text.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return text }
        let folded = lowercased(haystack)
        var output: [UInt8] = []
        var index = 0
        var replaced = false
        while index < haystack.count {
            if index + needle.count <= haystack.count, folded[index..<(index + needle.count)].elementsEqual(needle) {
                output.append(contentsOf: placeholder.utf8)
                index += needle.count
                replaced = true
            } else {
                output.append(haystack[index])
                index += 1
            }
        }
        return replaced ? String(decoding: output, as: UTF8.self) : text
    }

    private static func isRunCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~%+/=".utf8.contains(byte)
        }
    }

    private static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    }

    /// `%XX` (either case) decoded; a `%` not followed by two hex digits is kept.
    private static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension SecretRedactor: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Says how many secrets are held, never what they are.
    public var description: String { "SecretRedactor(\(tables.value.exactForms.count) form(s))" }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with no children, so `dump(_:)` cannot print the secrets.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
