// Offline search benchmark: generates N movies, indexes them with LocalMovieIndex in a fresh data
// directory, then times LocalMovieIndex.search (through the database actor, as movies.search calls it)
// over a mix of queries drawn from the generated titles, and reports the index's size from dbstat.
//
//   swift build -c release --product search-bench && .build/release/search-bench [--movies 100000]
//       [--queries 3000] [--seed 1]
import Foundation
import MovieCore
import SQLiteStore

/// SplitMix64: deterministic, so every run searches the same catalog.
struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func option(_ name: String, _ fallback: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count, let value = Int(arguments[at + 1])
    else { return fallback }
    return value
}

let movieCount = option("--movies", 100_000)
let queryCount = option("--queries", 3_000)
var random = Generator(state: UInt64(option("--seed", 1)))

// A vocabulary with a Zipf-like spread: real common title words first, then made-up words, some accented.
let common = """
    the of a in and love man night day life story last dark world city girl war king house dead time \
    return secret black blood star lost home christmas little great wild high red last american first \
    heart summer space island fire ghost queen shadow moon death river road sea dream killer
    """.split(whereSeparator: \.isWhitespace).map(String.init)
let onsets = ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "tr"]
let vowels = ["a", "e", "i", "o", "u", "é", "ou", "ia", "ä"]
var madeUp = Set<String>()
while madeUp.count < 20_000 {
    let syllables = Int.random(in: 2...4, using: &random)
    let parts = (0..<syllables).map { _ in
        onsets.randomElement(using: &random)! + vowels.randomElement(using: &random)!
    }
    madeUp.insert(parts.joined())
}
let vocabulary = common + madeUp.sorted()
/// A word of `vocabulary`, skewed to the front (roughly 1/rank).
@MainActor func word() -> String {
    let u = Double.random(in: 0..<1, using: &random)
    let rank = Int(pow(Double(vocabulary.count), u)) - 1
    return vocabulary[min(max(rank, 0), vocabulary.count - 1)]
}

let languages = ["en", "en", "en", "en", "fr", "es", "ja", "ko", "de", "it", "hi", "pt"]
var movies: [MovieSummary] = []
movies.reserveCapacity(movieCount)
for id in 1...movieCount {
    let title = (0..<Int.random(in: 1...5, using: &random)).map { _ in word() }.joined(separator: " ")
        .capitalized
    let overview = (0..<Int.random(in: 20...45, using: &random)).map { _ in word() }.joined(separator: " ") + "."
    let year = Int.random(in: 1920...2025, using: &random)
    let language = languages.randomElement(using: &random)!
    movies.append(MovieSummary(
        id: id, title: title, originalTitle: language == "en" ? title : title + " " + word().capitalized,
        overview: overview,
        releaseDate: String(
            format: "%04d-%02d-%02d", year, Int.random(in: 1...12, using: &random),
            Int.random(in: 1...28, using: &random)),
        genreIds: [18], voteAverage: Double.random(in: 0...10, using: &random),
        voteCount: Int.random(in: 0...30_000, using: &random),
        popularity: pow(Double.random(in: 0..<1, using: &random), 4) * 5_000,
        adult: Int.random(in: 0..<100, using: &random) == 0, originalLanguage: language,
        posterPath: "/p\(id).jpg", backdropPath: nil))
}

let directory = NSTemporaryDirectory() + "search-bench-" + UUID().uuidString
defer { try? FileManager.default.removeItem(atPath: directory) }
let store = try MovieStore(directory: DataDirectory(path: directory))
let index = LocalMovieIndex(database: store.database)

let indexingStart = ContinuousClock.now
for start in stride(from: 0, to: movies.count, by: 500) {
    try await index.index(Array(movies[start..<min(start + 500, movies.count)]))
}
let indexingTime = ContinuousClock.now - indexingStart

let sizes = try await store.database.read { db in
    try db.query("""
        SELECT name, sum(pgsize) FROM dbstat WHERE name LIKE 'search_movies%' GROUP BY name ORDER BY name
        """).map { (try $0.string(0), try $0.int(1)) }
}

/// Kinds of query, each drawn from a random movie's title (so most find something).
enum Kind: String, CaseIterable {
    case word = "one whole title word"
    case prefix = "a 4-letter prefix"
    case typeAhead = "two words, the last cut to 3 letters"
    case wholeTitle = "the whole title"
    case withYear = "one word + year"
    case withLanguage = "one word + language"
    case commonWord = "\"the\" (a third of all titles)"
}

@MainActor func query(_ kind: Kind) -> LocalSearchQuery {
    let movie = movies.randomElement(using: &random)!
    let words = movie.title.split(separator: " ").map(String.init)
    let one = words.randomElement(using: &random)!
    switch kind {
    case .word: return LocalSearchQuery(query: one)
    case .prefix: return LocalSearchQuery(query: String(one.prefix(4)))
    case .typeAhead:
        let pair = words.count > 1 ? words[0] + " " + String(words[1].prefix(3)) : String(one.prefix(3))
        return LocalSearchQuery(query: pair)
    case .wholeTitle: return LocalSearchQuery(query: movie.title)
    case .withYear: return LocalSearchQuery(query: one, year: Int(movie.releaseDate.prefix(4)))
    case .withLanguage: return LocalSearchQuery(query: one, language: movie.originalLanguage)
    case .commonWord: return LocalSearchQuery(query: "the")
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

// Warm-up: the page cache and the statement cache, as a running server has them.
for kind in Kind.allCases { for _ in 0..<20 { _ = try await index.search(query(kind)) } }

var all: [Double] = []
var report: [(Kind, [Double], Double)] = []
let perKind = max(1, queryCount / Kind.allCases.count)
for kind in Kind.allCases {
    var times: [Double] = []
    var found = 0
    for _ in 0..<perKind {
        let question = query(kind)
        let start = ContinuousClock.now
        let page = try await index.search(question)
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        found += page.results.isEmpty ? 0 : 1
    }
    times.sort()
    all += times
    report.append((kind, times, Double(found) / Double(perKind)))
}
all.sort()

func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
print("movies indexed: \(movieCount) in \(indexingTime) (batches of 500)")
print("queries: \(all.count), through the database actor")
print("all queries: p50 \(ms(percentile(all, 0.5))), p90 \(ms(percentile(all, 0.9))), "
    + "p99 \(ms(percentile(all, 0.99)))")
for (kind, times, found) in report {
    print("  \(kind.rawValue): p50 \(ms(percentile(times, 0.5))), p99 \(ms(percentile(times, 0.99))), "
        + "found something \(Int(found * 100)) %")
}
let total = sizes.reduce(0) { $0 + $1.1 }
print("index size: \(String(format: "%.1f", Double(total) / 1_048_576)) MiB for \(movieCount) movies "
    + "(\(String(format: "%.1f", Double(total) / 1_048_576 * 100_000 / Double(movieCount))) MiB per 100,000)")
for (name, bytes) in sizes {
    print("  \(name): \(String(format: "%.1f", Double(bytes) / 1_048_576)) MiB")
}
try await store.database.close()
