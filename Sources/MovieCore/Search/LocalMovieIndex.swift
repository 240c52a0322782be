#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// Every movie the server has stored, searchable without the network: SQLite FTS5 over the title, the
/// original title and the overview, in the data directory's database.
///
/// Folding: FTS5's `unicode61` tokenizer with `remove_diacritics 2` (case and diacritics are ignored, so
/// `leon` finds `Léon`); the query's words are quoted as `SearchExpression` says (no input is FTS5 syntax),
/// and its last word matches as a prefix (`jura` finds `Jurassic World`).
///
/// Ranking is by how well the titles match, in three levels, then by TMDB popularity:
/// 1. the title or the original title starts with the words (`star wars` → `Star Wars`, `Star Wars: …`);
/// 2. every word is in the title or the original title;
/// 3. some word is only in the overview.
/// Within a level the more popular movie comes first (popularity to the hundredth, then the higher id).
/// FTS5's bm25 is not the first key: it normalises by the length of the whole row, overview included, so it
/// would order two `Jurassic` titles by the length of their overviews, and popularity would never decide.
///
/// How it stays fast at 100,000 movies (docs/BENCHMARKS.md): each row's FTS5 rowid is its `rank`, the
/// popularity and id packed in one integer, so FTS5 walks a level's matches most popular first and stops
/// after the page; the filters are tokens of a `facets` column (`y1994`, `lfr`, `adult`), so FTS5 applies
/// them on its doclists and no row is read to filter or to sort. Counting stops at `countLimit` (50
/// pages), which bounds the work of a word that is in every overview. The titles
/// have an FTS5 index of their own for the title levels.
///
/// Rows are kept by movie id; a newer copy of a movie (by the time it was stored) replaces an older one,
/// and an older copy arriving late is ignored. The catalog cache, favorites and the v1 migration (which
/// fills the index from rows stored before it existed) all index through ``index(_:storedAt:in:)``.
public struct LocalMovieIndex: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Finds movies as the type's comment says. Never fails for what the query contains; throws
    /// `MovieError.storage` when the database cannot be read.
    public func search(_ query: LocalSearchQuery) async throws -> MoviePage {
        try await StorageErrors.mapping {
            try await database.read { db in try Self.search(query, in: db) }
        }
    }

    /// Adds or refreshes `movies`, as stored at `storedAt`.
    public func index(_ movies: [MovieSummary], storedAt: Date = Date()) async throws {
        guard !movies.isEmpty else { return }
        try await StorageErrors.mapping {
            try await database.write { db in try Self.index(movies, storedAt: storedAt, in: db) }
        }
    }

    /// How many movies are indexed.
    public func count() async throws -> Int {
        try await StorageErrors.mapping {
            try await database.read { db in try db.scalarInt("SELECT count(*) FROM search_movies") ?? 0 }
        }
    }

    // MARK: Schema

    /// Schema steps, in order; applied entries never change.
    ///
    /// `v1-search-index`: the movies and their FTS5 text (external content, kept in step by triggers that
    /// skip the text index when a refresh leaves the text as it was), then filled from every catalog
    /// answer and favorite already stored, oldest first, so an upgraded database is searchable at once.
    static let migrations: [MovieStore.Migration] = [
        ("v1-search-index", { db in
            try createSchema(db)
            try fillFromStoredRows(db)
        }),
    ]

    /// Creates the index's tables in `db` (the demo catalog's in-memory index uses it too).
    static func createSchema(_ db: SQLiteConnection) throws {
        try db.execute("""
            CREATE TABLE search_movies (
                rank INTEGER PRIMARY KEY NOT NULL,
                id INTEGER NOT NULL UNIQUE,
                title TEXT NOT NULL,
                original_title TEXT NOT NULL,
                overview TEXT NOT NULL,
                facets TEXT NOT NULL,
                summary BLOB NOT NULL,
                stored_at REAL NOT NULL
            );
            CREATE VIRTUAL TABLE search_movies_text USING fts5(
                title, original_title, overview, facets,
                content = 'search_movies', content_rowid = 'rank',
                tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
            );
            CREATE VIRTUAL TABLE search_movies_titles USING fts5(
                title, original_title, facets,
                content = 'search_movies', content_rowid = 'rank',
                tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
            );
            CREATE TRIGGER search_movies_text_insert AFTER INSERT ON search_movies BEGIN
                INSERT INTO search_movies_text(rowid, title, original_title, overview, facets)
                VALUES (new.rank, new.title, new.original_title, new.overview, new.facets);
                INSERT INTO search_movies_titles(rowid, title, original_title, facets)
                VALUES (new.rank, new.title, new.original_title, new.facets);
            END;
            CREATE TRIGGER search_movies_text_delete AFTER DELETE ON search_movies BEGIN
                INSERT INTO search_movies_text(search_movies_text, rowid, title, original_title, overview, facets)
                VALUES ('delete', old.rank, old.title, old.original_title, old.overview, old.facets);
                INSERT INTO search_movies_titles(search_movies_titles, rowid, title, original_title, facets)
                VALUES ('delete', old.rank, old.title, old.original_title, old.facets);
            END;
            CREATE TRIGGER search_movies_text_update AFTER UPDATE ON search_movies
            WHEN old.rank IS NOT new.rank OR old.title IS NOT new.title
                OR old.original_title IS NOT new.original_title OR old.overview IS NOT new.overview
                OR old.facets IS NOT new.facets
            BEGIN
                INSERT INTO search_movies_text(search_movies_text, rowid, title, original_title, overview, facets)
                VALUES ('delete', old.rank, old.title, old.original_title, old.overview, old.facets);
                INSERT INTO search_movies_titles(search_movies_titles, rowid, title, original_title, facets)
                VALUES ('delete', old.rank, old.title, old.original_title, old.facets);
                INSERT INTO search_movies_text(rowid, title, original_title, overview, facets)
                VALUES (new.rank, new.title, new.original_title, new.overview, new.facets);
                INSERT INTO search_movies_titles(rowid, title, original_title, facets)
                VALUES (new.rank, new.title, new.original_title, new.facets);
            END;
            """)
    }

    /// Indexes what the catalog cache and favorites held before the index existed, oldest first (so the
    /// newest copy of a movie wins). Rows that no longer decode are skipped, as the cache skips them.
    private static func fillFromStoredRows(_ db: SQLiteConnection) throws {
        let encoder = JSONEncoder()
        try db.withStatement("SELECT payload, fetched_at FROM catalog_cache ORDER BY fetched_at, key") { rows in
            while try rows.step() {
                guard case .blob(let bytes) = rows.value(at: 0), case .real(let time) = rows.value(at: 1),
                    let payload = CatalogCache.decodePayload(bytes)
                else { continue }
                try index(payload.indexedMovies, storedAt: Date(timeIntervalSince1970: time), in: db, encoder: encoder)
            }
        }
        let decoder = JSONDecoder()
        try db.withStatement("SELECT movie_json, added_at FROM favorites ORDER BY added_at, id") { rows in
            while try rows.step() {
                guard case .text(let json) = rows.value(at: 0), case .text(let addedAt) = rows.value(at: 1),
                    let movie = try? decoder.decode(MovieSummary.self, from: Data(json.utf8))
                else { continue }
                let storedAt = StoredTime.date(addedAt) ?? Date(timeIntervalSince1970: 0)
                try index([movie], storedAt: storedAt, in: db, encoder: encoder)
            }
        }
    }

    // MARK: Writing

    /// Upserts `movies` in `db` (inside the caller's transaction): the one way movies enter the index.
    static func index(_ movies: [MovieSummary], storedAt: Date, in db: SQLiteConnection) throws {
        try index(movies, storedAt: storedAt, in: db, encoder: JSONEncoder())
    }

    private static func index(
        _ movies: [MovieSummary], storedAt: Date, in db: SQLiteConnection, encoder: JSONEncoder
    ) throws {
        for movie in movies {
            guard let rank = rank(movie) else { continue }  // an id no TMDB movie has
            let summary = [UInt8](try encoder.encode(movie))
            try db.run(
                """
                INSERT INTO search_movies(rank, id, title, original_title, overview, facets, summary, stored_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET
                    rank = excluded.rank, title = excluded.title, original_title = excluded.original_title,
                    overview = excluded.overview, facets = excluded.facets, summary = excluded.summary,
                    stored_at = excluded.stored_at
                WHERE excluded.stored_at >= search_movies.stored_at
                """,
                [
                    .integer(rank), .integer(Int64(movie.id)), .text(movie.title), .text(movie.originalTitle),
                    .text(movie.overview), .text(facets(movie)), .blob(summary),
                    .real(storedAt.timeIntervalSince1970),
                ])
        }
    }

    /// The row's place in popularity order: hundredths of popularity in the high 32 bits, the id in the low
    /// 32 (ids are unique, so ranks are). Nil for an id outside 1..<2^32.
    static func rank(_ movie: MovieSummary) -> Int64? {
        guard movie.id > 0, movie.id < 1 << 32 else { return nil }
        let popularity = movie.popularity.isFinite ? movie.popularity : 0
        let hundredths = min(max((popularity * 100).rounded(), 0), 0x7FFF_FFFF)
        return Int64(hundredths) << 32 | Int64(movie.id)
    }

    /// The filter tokens: `y` + the primary release year, `l` + the original language, `adult`.
    static func facets(_ movie: MovieSummary) -> String {
        var tokens: [String] = []
        if let year = releaseYear(movie.releaseDate) { tokens.append(yearFacet(year)) }
        let language = movie.originalLanguage.lowercased()
        if !language.isEmpty { tokens.append(languageFacet(language)) }
        if movie.adult { tokens.append(adultFacet) }
        return tokens.joined(separator: " ")
    }

    static func yearFacet(_ year: Int) -> String { "y\(year)" }
    static func languageFacet(_ language: String) -> String { "l" + language }
    static let adultFacet = "adult"

    /// The year of a `YYYY-MM-DD` date; nil when unknown.
    static func releaseYear(_ date: String) -> Int? {
        let year = date.utf8.prefix(4)
        guard year.count == 4, year.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(String(decoding: year, as: UTF8.self))
    }

    // MARK: Reading

    /// The most matches counted and served: 50 pages. Counting is most of the work for a word found in
    /// most overviews, and an answer that says `complete: false` need not page as deep as TMDB's.
    static let countLimit = 1_000

    /// Answers `query` from the index in `db`: the one implementation of the matching rules.
    static func search(_ query: LocalSearchQuery, in db: SQLiteConnection) throws -> MoviePage {
        let page = max(query.page, 1)
        let empty = MoviePage(page: page, totalPages: 1, totalResults: 0, results: [])
        guard page <= countLimit / LocalSearchQuery.pageSize, let expression = SearchExpression(query.query) else {
            return empty
        }
        var filters: [String] = []
        switch query.releaseYearFilter {
        case .none: break
        case .some(.none): return empty
        case .some(.some(let year)): filters.append(yearFacet(year))
        }
        if let language = query.originalLanguageFilter { filters.append(languageFacet(language)) }
        /// `words` with the filters applied, the levels above excluded.
        func matching(_ words: String, excluding better: String?) -> String {
            var match = "(\(words))"
            if let better { match += " NOT (\(better))" }
            for token in filters { match = "(\(match)) AND facets : \(SearchExpression.quoted(token))" }
            if !query.includeAdult { match = "(\(match)) NOT facets : \(SearchExpression.quoted(adultFacet))" }
            return match
        }
        // The levels, best first; each excludes the ones before, so together they list every match once.
        // The title levels ask the titles' own index: a word common in overviews but rare in titles would
        // otherwise have FTS5 walk all its overview hits to find the few in titles.
        let levels: [(table: String, match: String)] = [
            ("search_movies_titles", matching(expression.titleStart, excluding: nil)),
            ("search_movies_titles", matching(expression.inTitles, excluding: expression.titleStart)),
            ("search_movies_text", matching(expression.anywhere, excluding: expression.inTitles)),
        ]
        let total = try count(
            ("search_movies_text", matching(expression.anywhere, excluding: nil)), limit: countLimit, in: db)
        // Walk the levels to the page: a level's size is counted only as far as the page's offset, so the
        // first page counts nothing but the total.
        var skip = (page - 1) * LocalSearchQuery.pageSize
        var movies: [MovieSummary] = []
        let decoder = JSONDecoder()
        for level in levels where movies.count < LocalSearchQuery.pageSize && skip < total {
            if skip > 0 {
                let size = try count(level, limit: skip, in: db)
                guard size == skip else {
                    skip -= size
                    continue
                }
            }
            let rows = try db.query(
                """
                SELECT summary FROM search_movies WHERE rank IN (
                    SELECT rowid FROM \(level.table) WHERE \(level.table) MATCH ?
                    ORDER BY rowid DESC LIMIT ? OFFSET ?)
                ORDER BY rank DESC
                """,
                [.text(level.match), .integer(Int64(LocalSearchQuery.pageSize - movies.count)), .integer(Int64(skip))])
            movies += rows.compactMap { row in
                guard case .blob(let bytes) = row.values.first else { return nil }
                return try? decoder.decode(MovieSummary.self, from: Data(bytes))
            }
            skip = 0
        }
        let totalPages = max(1, (total + LocalSearchQuery.pageSize - 1) / LocalSearchQuery.pageSize)
        return MoviePage(page: page, totalPages: totalPages, totalResults: total, results: movies)
    }

    /// How many rows `match` finds, counting no further than `limit`.
    private static func count(
        _ level: (table: String, match: String), limit: Int, in db: SQLiteConnection
    ) throws -> Int {
        try db.scalarInt(
            "SELECT count(*) FROM (SELECT rowid FROM \(level.table) WHERE \(level.table) MATCH ? LIMIT ?)",
            [.text(level.match), .integer(Int64(limit))]) ?? 0
    }
}
