/// What `events.search` looks at, and how a query becomes an index lookup.
///
/// An event matches a query when its name, or the text of one of its parameter values, contains the
/// query, ignoring case (Unicode lowercase mapping of both sides). The text of a value is: a string as it
/// is; an integer in decimal (`550`); any other number as Swift prints a `Double` (`7.5`, `1e+20`); `true`
/// or `false`; each array element on its own. Parameter keys and JSON punctuation are not searched, so a
/// query of `"` finds only values that contain a quote. `%`, `_`, `'`, `"` and `\` are ordinary
/// characters.
///
/// Each event stores this as one lowercased `search` column: the name and the values, separated by
/// U+001F (which queries may not contain, so no match spans two values; names may not contain it either).
/// The trigram index holds the values part alone; the events whose name matches are found by name.
enum EventSearchText {
    static let separator = "\u{1F}"
    /// Queries shorter than this (in Unicode scalars) cannot use the trigram index.
    static let trigramLength = 3
    /// At most this many trigrams of a long query go into the index lookup; the exact check does the rest.
    static let maxTrigrams = 24

    /// The `search` column of an event.
    static func make(name: String, params: [String: EventValue]) -> String {
        guard !params.isEmpty else { return isLowercaseASCII(name) ? name : name.lowercased() }
        var joined = name
        joined.reserveCapacity(name.utf8.count + 24 * params.count)
        for (_, value) in params.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .array(let elements):
                for element in elements {
                    joined += separator
                    joined += text(element)
                }
            case .int(let number):
                joined += separator
                joined += String(number)
            case .double(let number):
                joined += separator
                joined += String(number)
            case .string(let text):
                joined += separator
                joined += text
            case .bool(let flag):
                joined += separator
                joined += flag ? "true" : "false"
            }
        }
        // What the server records is lowercase ASCII (`genres.opened`, `movie.viewed` and a number): kept as
        // it is, without the copy that lowercasing makes.
        return isLowercaseASCII(joined) ? joined : joined.lowercased()
    }

    /// Whether `text` is ASCII without capitals, so that lowercasing leaves it as it is.
    private static func isLowercaseASCII(_ text: String) -> Bool {
        // The bytes in place (a native string's, or a small one's copy): the view's iterator is slower.
        text.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 >= 0x80 || (0x41...0x5A).contains($0) }
        } ?? false  // Not contiguous (bridged): lowercased as any other.
    }

    private static func text(_ scalar: EventScalar) -> String {
        switch scalar {
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        }
    }

    /// Whether the search text of `name` (the name part of the `search` column) contains `needle`, as
    /// `instr` finds it: the UTF-8 bytes in order, not Swift's comparison of characters.
    static func nameText(_ name: String, contains needle: String) -> Bool {
        let text = Array(make(name: name, params: [:]).utf8)
        let wanted = Array(needle.utf8)
        guard !wanted.isEmpty else { return true }
        guard text.count >= wanted.count else { return false }
        return (0...(text.count - wanted.count)).contains { start in
            text[start..<(start + wanted.count)].elementsEqual(wanted)
        }
    }

    /// Whether `query` may be searched: control characters other than tab and line breaks are refused.
    static func isSearchable(_ query: String) -> Bool {
        !query.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }
    }

    /// The query as it is compared with the `search` column.
    static func normalize(_ query: String) -> String {
        query.lowercased()
    }

    /// An FTS5 expression that every event containing `normalized` matches: its distinct trigrams, each a
    /// quoted string, joined by AND. Nil when the query is shorter than a trigram.
    ///
    /// The expression is a bound value, never part of the SQL text; quoting keeps FTS5 from reading
    /// operators in it.
    static func trigramExpression(_ normalized: String) -> String? {
        let scalars = Array(normalized.unicodeScalars)
        guard scalars.count >= trigramLength else { return nil }
        var seen = Set<String>()
        var trigrams: [String] = []
        for start in 0...(scalars.count - trigramLength) {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<(start + trigramLength)])
            let text = String(trigram)
            if seen.insert(text).inserted { trigrams.append(text) }
        }
        if trigrams.count > maxTrigrams {
            // Spread the chosen trigrams over the whole query.
            let step = Double(trigrams.count - 1) / Double(maxTrigrams - 1)
            trigrams = (0..<maxTrigrams).map { trigrams[Int((Double($0) * step).rounded())] }
        }
        return trigrams.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
            .joined(separator: " AND ")
    }
}
