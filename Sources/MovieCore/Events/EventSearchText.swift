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

    /// The `search` column of an event. Built as bytes: a `String` append per value, and a sort of the one
    /// member the server's events have, were 2,500 instructions an event.
    static func make(name: String, params: [String: EventValue]) -> String {
        guard !params.isEmpty else { return isLowercaseASCII(name) ? name : name.lowercased() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count + 24 * params.count)
        bytes.append(contentsOf: name.utf8)
        func append(_ value: EventValue) {
            switch value {
            case .array(let elements):
                for element in elements {
                    bytes.append(separatorByte)
                    bytes.append(contentsOf: text(element).utf8)
                }
            case .int(let number):
                bytes.append(separatorByte)
                bytes.append(contentsOf: String(number).utf8)
            case .double(let number):
                bytes.append(separatorByte)
                bytes.append(contentsOf: String(number).utf8)
            case .string(let text):
                bytes.append(separatorByte)
                bytes.append(contentsOf: text.utf8)
            case .bool(let flag):
                bytes.append(separatorByte)
                bytes.append(contentsOf: (flag ? "true" : "false").utf8)
            }
        }
        if params.count == 1, let only = params.first {
            append(only.value)
        } else {
            for (_, value) in params.sorted(by: { $0.key < $1.key }) { append(value) }
        }
        let joined = String(decoding: bytes, as: UTF8.self)
        // What the server records is lowercase ASCII (`genres.opened`, `movie.viewed` and a number): kept as
        // it is, without the copy that lowercasing makes.
        let lowercaseASCII = !bytes.contains { $0 >= 0x80 || (0x41...0x5A).contains($0) }
        return lowercaseASCII ? joined : joined.lowercased()
    }

    /// `separator`'s one UTF-8 byte.
    private static var separatorByte: UInt8 { 0x1F }

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
