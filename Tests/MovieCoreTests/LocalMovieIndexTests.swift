import Foundation
import SQLiteStore
import Testing

@testable import MovieCore

/// A data directory with the store open and the offline search index over it.
final class SearchHarness: Sendable {
    let directory: DataDirectory
    let store: MovieStore
    var index: LocalMovieIndex { LocalMovieIndex(database: store.database) }

    init() throws {
        directory = DataDirectory(path: NSTemporaryDirectory() + "LocalMovieIndexTests-" + UUID().uuidString)
        store = try MovieStore(directory: directory)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory.path)
    }

    static func movie(
        _ id: Int, _ title: String, originalTitle: String? = nil, overview: String = "", releaseDate: String = "",
        popularity: Double = 1, adult: Bool = false, language: String = "en"
    ) -> MovieSummary {
        MovieSummary(
            id: id, title: title, originalTitle: originalTitle ?? title, overview: overview, releaseDate: releaseDate,
            genreIds: [18], voteAverage: 7, voteCount: 100, popularity: popularity, adult: adult,
            originalLanguage: language, posterPath: nil, backdropPath: nil)
    }

    /// Registers a user and makes `movie` their favorite.
    func addFavorite(_ movie: MovieSummary) async throws {
        let accounts = AccountService(
            store: AccountStore(database: store.database, sealer: nil), hasher: PasswordHasher(iterations: 1000),
            firebase: nil)
        let user = try await accounts.register(email: "ada@example.com", password: "pw1")
        try await FavoritesStore(database: store.database).add(userID: user.id, movie: movie)
    }

    func ids(_ text: String, year: Int? = nil, primaryReleaseYear: Int? = nil, language: String? = nil,
             includeAdult: Bool = false, page: Int = 1) async throws -> [Int] {
        try await index.search(LocalSearchQuery(
            query: text, year: year, primaryReleaseYear: primaryReleaseYear, language: language,
            includeAdult: includeAdult, page: page)).results.map(\.id)
    }
}

@Suite struct LocalMovieIndexTests {
    let harness: SearchHarness
    init() throws { harness = try SearchHarness() }

    static let leon = SearchHarness.movie(
        101, "Léon: The Professional", originalTitle: "Léon", overview: "A hitman takes in a girl.",
        releaseDate: "1994-09-14", popularity: 40)
    static let amelie = SearchHarness.movie(
        194, "Amélie", originalTitle: "Le Fabuleux Destin d'Amélie Poulain", overview: "A shy waitress in Paris.",
        releaseDate: "2001-04-25", popularity: 30, language: "fr")

    @Test func caseAndDiacriticsAreIgnored() async throws {
        try await harness.index.index([Self.leon, Self.amelie])
        #expect(try await harness.ids("leon") == [101])
        #expect(try await harness.ids("LEON") == [101])
        #expect(try await harness.ids("Léon") == [101])
        #expect(try await harness.ids("amelie") == [194])
        #expect(try await harness.ids("AMÉLIE") == [194])
        #expect(try await harness.ids("fabuleux destin") == [194])  // the original title counts
        #expect(try await harness.ids("waitress") == [194])  // and the overview
    }

    @Test func theLastWordMatchesAsAPrefix() async throws {
        try await harness.index.index([
            SearchHarness.movie(1, "Jurassic World", popularity: 50),
            SearchHarness.movie(2, "Return to Jurassic Park", popularity: 5),
            SearchHarness.movie(3, "Juno", popularity: 500),
        ])
        #expect(try await harness.ids("jura") == [1, 2])
        #expect(try await harness.ids("jurassic wor") == [1])
        #expect(try await harness.ids("ju") == [3, 1, 2])
        // Only the last word is a prefix: earlier words are whole words.
        #expect(try await harness.ids("jura world") == [])
    }

    @Test func titlesRankAboveOverviewsThenPopularityDecides() async throws {
        try await harness.index.index([
            SearchHarness.movie(1, "A Quiet Place", overview: "Matrix of silence.", popularity: 900),
            SearchHarness.movie(2, "The Matrix", overview: "A hacker learns the truth.", popularity: 10),
            SearchHarness.movie(3, "The Matrix Reloaded", overview: "Neo returns.", popularity: 20),
            SearchHarness.movie(4, "Matrix", overview: String(repeating: "long overview ", count: 50), popularity: 5),
        ])
        // Titles starting with the words first, then titles holding them, then overviews; each by popularity.
        #expect(try await harness.ids("matrix") == [4, 3, 2, 1])
        #expect(try await harness.ids("the matrix") == [3, 2])
    }

    @Test func equalMatchesAreOrderedByPopularity() async throws {
        // Same match level, different overview lengths (which bm25 would weigh): popularity decides.
        try await harness.index.index([
            SearchHarness.movie(1, "Jurassic Park", overview: "Dinosaurs.", popularity: 5),
            SearchHarness.movie(
                2, "Jurassic World", overview: String(repeating: "dinosaurs ", count: 80), popularity: 50),
            SearchHarness.movie(3, "Jurassic World Dominion", overview: "More dinosaurs.", popularity: 20),
        ])
        #expect(try await harness.ids("jurassic") == [2, 3, 1])
    }

    @Test func yearLanguageAndAdultFilters() async throws {
        try await harness.index.index([
            Self.leon, Self.amelie,
            SearchHarness.movie(7, "Léon Morin, Priest", releaseDate: "1961-09-22", popularity: 3, language: "fr"),
            SearchHarness.movie(8, "Leon Uncut", releaseDate: "1994-01-01", popularity: 99, adult: true),
            SearchHarness.movie(9, "Leon Someday", popularity: 1),
        ])
        #expect(try await harness.ids("leon") == [101, 7, 9])
        #expect(try await harness.ids("leon", includeAdult: true) == [8, 101, 7, 9])
        #expect(try await harness.ids("leon", year: 1994) == [101])
        #expect(try await harness.ids("leon", primaryReleaseYear: 1961) == [7])
        #expect(try await harness.ids("leon", year: 1994, primaryReleaseYear: 1994) == [101])
        #expect(try await harness.ids("leon", year: 1994, primaryReleaseYear: 1961) == [])
        #expect(try await harness.ids("leon", language: "fr") == [7])
        #expect(try await harness.ids("leon", language: "fr-FR") == [7])
        #expect(try await harness.ids("leon", language: "EN") == [101, 9])
    }

    @Test(arguments: [
        "\"", "\"\"", "AND", "OR", "NOT", "NEAR", "*", "^", "-", ":", "(", ")", "{", "}", "+",
        "leon AND", "AND leon", "leon OR amelie", "NOT leon", "NEAR(leon amelie)", "title:leon", "{title}: leon",
        "\"leon", "leon\"", "le\"on", "^leon", "leon*", "*leon", "'; DROP TABLE search_movies; --",
        "\u{0}", "leon\u{0}amelie", "🎬", "🎬🍿", "👩‍👩‍👧‍👦 leon", "\u{301}\u{301}", "", "   ",
        "\n\t",
    ])
    func hostileQueriesNeverFail(_ text: String) async throws {
        try await harness.index.index([Self.leon, Self.amelie])
        let page = try await harness.index.search(LocalSearchQuery(query: text))
        #expect(page.page == 1 && page.results.count == page.totalResults)
    }

    @Test func operatorsAreWordsAndQuotesAreText() async throws {
        try await harness.index.index([
            Self.leon, SearchHarness.movie(5, "Near Dark", popularity: 2), SearchHarness.movie(6, "Not Okay"),
            SearchHarness.movie(10, "Spider-Man: No Way Home", popularity: 9),
        ])
        #expect(try await harness.ids("near") == [5])
        #expect(try await harness.ids("NOT") == [6])
        #expect(try await harness.ids("leon AND") == [])  // "and" is a word that Léon's text lacks
        #expect(try await harness.ids("🎬 leon") == [101])  // a word without letters is dropped
        #expect(try await harness.ids("\"leon\"") == [101])
        #expect(try await harness.ids("spider-man") == [10])
        #expect(try await harness.ids("spider man no") == [10])
    }

    @Test func longQueriesAreCutNotRefused() async throws {
        try await harness.index.index([Self.leon])
        let tenKilobytes = String(repeating: "x", count: 10_240)
        #expect(try await harness.ids(tenKilobytes) == [])
        #expect(try await harness.ids("leon " + tenKilobytes) == [])
        #expect(try await harness.ids("leon " + String(repeating: "professional ", count: 1000)) == [101])
        // One Character of 10,001 scalars: cut like any other text, and its marks are folded away.
        let manyMarks = "leon" + String(repeating: "\u{301}", count: 10_000)
        #expect(try await harness.ids(manyMarks) == [101])
    }

    @Test func expressionBounds() throws {
        let expression = try #require(SearchExpression((1...20).map { "w\($0)" }.joined(separator: " ")))
        #expect(expression.terms == (1...SearchExpression.maxTerms).map { "w\($0)" })
        let long = SearchExpression(String(repeating: "a", count: 1000))
        #expect(long?.terms.first?.count == SearchExpression.maxScalars)
        #expect(SearchExpression("say \"hi\"")?.anywhere == #"{title original_title overview} : ("say" """hi"""*)"#)
        #expect(SearchExpression(" * \" 🎬 ") == nil)
    }

    @Test func pagesOfTwenty() async throws {
        try await harness.index.index((1...45).map { SearchHarness.movie($0, "Film \($0)", popularity: Double($0)) })
        let first = try await harness.index.search(LocalSearchQuery(query: "film"))
        #expect(first.results.map(\.id) == Array((26...45).reversed()))
        #expect(first.totalResults == 45 && first.totalPages == 3)
        #expect(try await harness.ids("film", page: 3) == [5, 4, 3, 2, 1])
        #expect(try await harness.ids("film", page: 4) == [])
        #expect(try await harness.ids("film", page: 501) == [])
        #expect(try await harness.ids("film", page: Int.max) == [])
    }

    @Test func pagesRunOnAcrossMatchLevels() async throws {
        // 25 titles starting with the word, 10 holding it later, 10 with it in the overview only.
        try await harness.index.index(
            (1...25).map { SearchHarness.movie($0, "Dune \($0)", popularity: Double($0)) }
                + (26...35).map { SearchHarness.movie($0, "Return to Dune \($0)", popularity: Double($0) * 10) }
                + (36...45).map {
                    SearchHarness.movie($0, "Sand \($0)", overview: "Dunes.", popularity: Double($0) * 100)
                })
        let first = try await harness.index.search(LocalSearchQuery(query: "dune"))
        #expect(first.totalResults == 45 && first.totalPages == 3)
        #expect(first.results.map(\.id) == Array((6...25).reversed()))
        #expect(try await harness.ids("dune", page: 2) == Array((1...5).reversed()) + Array((26...35).reversed())
            + [45, 44, 43, 42, 41])
        #expect(try await harness.ids("dune", page: 3) == [40, 39, 38, 37, 36])
    }

    @Test func countingAndPagingStopAtTheCountLimit() async throws {
        let many = LocalMovieIndex.countLimit + 100
        try await harness.index.index((1...many).map { SearchHarness.movie($0, "Film \($0)", popularity: Double($0)) })
        let first = try await harness.index.search(LocalSearchQuery(query: "film"))
        #expect(first.totalResults == LocalMovieIndex.countLimit && first.totalPages == 50)
        #expect(first.results.first?.id == many)
        let last = try await harness.index.search(LocalSearchQuery(query: "film", page: 50))
        #expect(last.results.count == 20 && last.results.last?.id == many - LocalMovieIndex.countLimit + 1)
        #expect(try await harness.ids("film", page: 51) == [])
    }

    @Test func sqliteHasFTS5() async throws {
        let options = try await harness.store.database.read { db in
            try db.query("PRAGMA compile_options").map { try $0.string(0) }
        }
        #expect(options.contains("ENABLE_FTS5"))
    }

    @Test func theNewestCopyWins() async throws {
        let old = Date(timeIntervalSince1970: 1_000), new = Date(timeIntervalSince1970: 2_000)
        try await harness.index.index([SearchHarness.movie(1, "Working Title")], storedAt: new)
        try await harness.index.index([SearchHarness.movie(1, "Ancient Title")], storedAt: old)
        #expect(try await harness.ids("working") == [1])
        #expect(try await harness.ids("ancient") == [])
        try await harness.index.index([SearchHarness.movie(1, "Final Title")], storedAt: new.addingTimeInterval(1))
        #expect(try await harness.ids("final") == [1])
        #expect(try await harness.ids("working") == [])  // the text index follows the row
        #expect(try await harness.index.count() == 1)
        let page = try await harness.index.search(LocalSearchQuery(query: "final"))
        #expect(page.results == [SearchHarness.movie(1, "Final Title")])  // the summary as stored
    }

    @Test func cachedPagesDetailsAndFavoritesAreIndexed() async throws {
        let cache = CatalogCache(database: harness.store.database)
        let page = MoviePage(page: 1, totalPages: 1, totalResults: 1, results: [Self.leon])
        try await cache.store("popular?page=1", .page(page), fetchedAt: Date())
        let details = MovieDetails(
            summary: Self.amelie, tagline: "", runtime: 122, status: "Released", genres: [], homepage: "",
            imdbId: "tt0211915", budget: 0, revenue: 0, spokenLanguages: [], productionCompanies: [])
        try await cache.store("movie/194", .details(details), fetchedAt: Date())
        try await cache.store("genres", .genres([Genre(id: 18, name: "Drama")]), fetchedAt: Date())
        try await harness.addFavorite(SearchHarness.movie(550, "Fight Club", popularity: 60))
        #expect(try await harness.ids("leon") == [101])
        #expect(try await harness.ids("amelie") == [194])
        #expect(try await harness.ids("fight") == [550])
    }

    @Test func theMigrationIndexesWhatWasStoredBeforeIt() async throws {
        // A database as the version before the index left it: cache rows and a favorite, no index, and
        // no schema stamp (versions before the stamp left `user_version` at 0).
        let cache = CatalogCache(database: harness.store.database)
        let older = SearchHarness.movie(101, "Leon (old copy)", popularity: 1)
        try await cache.store("movie/101?old", .details(MovieDetails(
            summary: older, tagline: "", runtime: nil, status: "", genres: [], homepage: "", imdbId: nil,
            budget: 0, revenue: 0, spokenLanguages: [], productionCompanies: [])),
            fetchedAt: Date(timeIntervalSince1970: 1_000))
        try await cache.store(
            "popular?page=1",
            .page(MoviePage(page: 1, totalPages: 1, totalResults: 2, results: [Self.leon, Self.amelie])),
            fetchedAt: Date(timeIntervalSince1970: 2_000))
        try await harness.addFavorite(SearchHarness.movie(550, "Fight Club", popularity: 60))
        try await harness.store.database.write { db in
            try db.execute("""
                DROP TABLE search_movies_text;
                DROP TABLE search_movies_titles;
                DROP TABLE search_movies;
                DELETE FROM schema_migrations WHERE identifier = 'v1-search-index';
                PRAGMA user_version = 0;
                INSERT INTO catalog_cache(key, payload, fetched_at) VALUES ('unreadable', x'7b7d', 3000);
                """)
        }
        try await harness.store.database.close()

        let reopened = try MovieStore(directory: harness.directory)
        let index = LocalMovieIndex(database: reopened.database)
        #expect(try await index.count() == 3)
        let leon = try await index.search(LocalSearchQuery(query: "leon"))
        #expect(leon.results == [Self.leon])  // the newer of the two cached copies
        #expect(try await index.search(LocalSearchQuery(query: "amelie")).results.map(\.id) == [194])
        #expect(try await index.search(LocalSearchQuery(query: "fight club")).results.map(\.id) == [550])
        try await reopened.database.close()
    }
}
