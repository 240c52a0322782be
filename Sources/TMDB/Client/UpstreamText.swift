/// Text sent by an upstream service (TMDB's `status_message`), made fit to show a client: terminal escape
/// sequences and control, format (bidi overrides, zero-width), private-use and unassigned characters
/// removed, line breaks and tabs turned into spaces, runs of spaces collapsed, and the length capped.
///
/// The credential is removed between ``cleaned(_:)`` and ``capped(_:)`` (see ``TMDBErrorMapping``): after
/// cleaning, so that an escape sequence cannot split it, and before capping, so that the cap cannot leave
/// a piece of it too short to be recognised.
public enum UpstreamText {
    /// At most this many characters reach a client (an ellipsis included).
    public static let maxCharacters = 200
    /// At most this many Unicode scalars of the upstream text are read at all.
    static let maxScalarsRead = 4096

    /// Cleaned and capped, for text that holds no secret.
    public static func sanitized(_ text: String) -> String {
        capped(cleaned(text))
    }

    /// `text` (its first ``maxScalarsRead`` scalars) without escape sequences or invisible characters.
    public static func cleaned(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var state = EscapeState.text
        var pendingSpace = false
        for (index, scalar) in text.unicodeScalars.enumerated() {
            guard index < maxScalarsRead else { break }
            switch state {
            case .text:
                break
            case .afterEscape:
                // ESC [ is CSI, ESC ] OSC, ESC P/X/^/_ strings; any other byte ends a two-byte sequence.
                switch scalar {
                case "[": state = .controlSequence
                case "]", "P", "X", "^", "_": state = .commandString
                default: state = .text
                }
                continue
            case .controlSequence:
                // Parameters and intermediates (0x20-0x3F) until a final byte (0x40-0x7E).
                if !(0x20...0x3f).contains(scalar.value) { state = .text }
                continue
            case .commandString:
                // Until BEL, ST (ESC \), or the 8-bit ST.
                if scalar == "\u{07}" || scalar == "\u{9c}" { state = .text }
                if scalar == "\u{1b}" { state = .afterEscape }
                continue
            }
            switch scalar {
            case "\u{1b}":
                state = .afterEscape
            case "\u{9b}":
                state = .controlSequence
            case "\u{9d}", "\u{90}", "\u{98}", "\u{9e}", "\u{9f}":
                state = .commandString
            case "\t", "\n", "\r", "\u{0b}", "\u{0c}", "\u{85}", "\u{2028}", "\u{2029}", " ":
                pendingSpace = !output.isEmpty
            default:
                guard isShown(scalar) else { continue }
                if scalar.properties.isWhitespace {
                    pendingSpace = !output.isEmpty
                    continue
                }
                if pendingSpace {
                    output.append(" ")
                    pendingSpace = false
                }
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// `text` cut to ``maxCharacters`` characters (and four bytes each), with "…" when it was cut.
    public static func capped(_ text: String) -> String {
        let maxBytes = 4 * maxCharacters
        if text.utf8.count <= maxBytes, text.count <= maxCharacters { return text }
        var result = ""
        var count = 0
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            guard count < maxCharacters - 1, bytes + size <= maxBytes - 3 else { break }
            result.append(character)
            count += 1
            bytes += size
        }
        return result + "…"
    }

    private enum EscapeState {
        case text
        case afterEscape
        case controlSequence
        case commandString
    }

    /// Whether a scalar is a visible character: not a control, format (bidi, zero-width), private-use,
    /// surrogate or unassigned code point.
    private static func isShown(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator:
            false
        default:
            true
        }
    }
}
