#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The FTS5 match expressions for what a user typed, built so that no input can be FTS5 syntax.
///
/// The text is cut at whitespace and control characters into words; each word becomes an FTS5 string
/// (`"…"`, inner quotes doubled), which FTS5's own tokenizer splits further (`spider-man` is the phrase
/// `spider man`), so operators (`AND`, `NEAR`, `*`, `^`, `:`, parentheses) are only ever text. Words
/// without a letter or digit (`"`, `*`, emoji) are dropped: FTS5 would find no token in them, and an empty
/// phrase matches nothing, which would empty the whole AND. Every word must match; the last one also
/// matches as a prefix (`jura` finds `Jurassic`), as a user who is still typing expects.
///
/// Work is bounded: the first `maxScalars` Unicode scalars are read and the first `maxTerms` words kept.
struct SearchExpression: Sendable, Equatable {
    /// The most Unicode scalars of the query that are read (a title is rarely a fifth of it).
    static let maxScalars = 256
    /// The most words kept.
    static let maxTerms = 8

    /// The words, each with at least one letter or digit, as typed.
    let terms: [String]

    /// Nil when the text has no searchable word.
    init?(_ text: String) {
        var terms: [String] = []
        var word = String.UnicodeScalarView()
        func endWord() {
            if word.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                terms.append(String(word))
            }
            word.removeAll()
        }
        for scalar in text.unicodeScalars.prefix(Self.maxScalars) {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
                endWord()
                if terms.count == Self.maxTerms { break }
            } else {
                word.append(scalar)
            }
        }
        if terms.count < Self.maxTerms { endWord() }
        guard !terms.isEmpty else { return nil }
        self.terms = terms
    }

    /// Every word anywhere (title, original title, overview).
    var anywhere: String {
        "{title original_title overview} : (\(phrases))"
    }

    /// Every word in the title or the original title.
    var inTitles: String {
        "{title original_title} : (\(phrases))"
    }

    /// The title or the original title starts with the words, in order.
    var titleStart: String {
        "{title original_title} : ^" + Self.quoted(terms.joined(separator: " ")) + "*"
    }

    private var phrases: String {
        terms.enumerated().map { index, term in
            Self.quoted(term) + (index == terms.count - 1 ? "*" : "")
        }.joined(separator: " ")
    }

    static func quoted(_ word: String) -> String {
        "\"" + word.replacing("\"", with: "\"\"") + "\""
    }
}
