import Foundation
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
/// Within a level the more popular movie comes first (then the lower id, so pages are stable). FTS5's
/// bm25 is not the first key: it normalises by the length of the whole row, overview included, so it would
/// order two `Jurassic` titles by the length of their overviews, and popularity would never decide.
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
                id INTEGER PRIMARY KEY NOT NULL,
                title TEXT NOT NULL,
                original_title TEXT NOT NULL,
                overview TEXT NOT NULL,
                release_year INTEGER,
                original_language TEXT NOT NULL,
                adult INTEGER NOT NULL,
                popularity REAL NOT NULL,
                summary BLOB NOT NULL,
                stored_at REAL NOT NULL
            );
            CREATE VIRTUAL TABLE search_movies_text USING fts5(
                title, original_title, overview,
                content = 'search_movies', content_rowid = 'id',
                tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
            );
            CREATE TRIGGER search_movies_text_insert AFTER INSERT ON search_movies BEGIN
                INSERT INTO search_movies_text(rowid, title, original_title, overview)
                VALUES (new.id, new.title, new.original_title, new.overview);
            END;
            CREATE TRIGGER search_movies_text_delete AFTER DELETE ON search_movies BEGIN
                INSERT INTO search_movies_text(search_movies_text, rowid, title, original_title, overview)
                VALUES ('delete', old.id, old.title, old.original_title, old.overview);
            END;
            CREATE TRIGGER search_movies_text_update AFTER UPDATE ON search_movies
            WHEN old.title IS NOT new.title OR old.original_title IS NOT new.original_title
                OR old.overview IS NOT new.overview
            BEGIN
                INSERT INTO search_movies_text(search_movies_text, rowid, title, original_title, overview)
                VALUES ('delete', old.id, old.title, old.original_title, old.overview);
                INSERT INTO search_movies_text(rowid, title, original_title, overview)
                VALUES (new.id, new.title, new.original_title, new.overview);
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
            let summary = [UInt8](try encoder.encode(movie))
            try db.run(
                """
                INSERT INTO search_movies(id, title, original_title, overview, release_year, original_language,
                    adult, popularity, summary, stored_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET
                    title = excluded.title, original_title = excluded.original_title,
                    overview = excluded.overview, release_year = excluded.release_year,
                    original_language = excluded.original_language, adult = excluded.adult,
                    popularity = excluded.popularity, summary = excluded.summary, stored_at = excluded.stored_at
                WHERE excluded.stored_at >= search_movies.stored_at
                """,
                [
                    .integer(Int64(movie.id)), .text(movie.title), .text(movie.originalTitle),
                    .text(movie.overview), releaseYear(movie.releaseDate).map { .integer(Int64($0)) } ?? .null,
                    .text(movie.originalLanguage.lowercased()), .integer(movie.adult ? 1 : 0),
                    .real(movie.popularity), .blob(summary), .real(storedAt.timeIntervalSince1970),
                ])
        }
    }

    /// The year of a `YYYY-MM-DD` date; nil when unknown.
    static func releaseYear(_ date: String) -> Int? {
        let year = date.utf8.prefix(4)
        guard year.count == 4, year.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(String(decoding: year, as: UTF8.self))
    }

    // MARK: Reading

    /// Answers `query` from the index in `db`: the one implementation of the matching rules.
    static func search(_ query: LocalSearchQuery, in db: SQLiteConnection) throws -> MoviePage {
        let page = max(query.page, 1)
        guard page <= MoviePage.maxPage, let expression = SearchExpression(query.query) else {
            return MoviePage(page: page, totalPages: 1, totalResults: 0, results: [])
        }
        var filters = ""
        var arguments: [SQLiteValue] = [.text(expression.anywhere)]
        switch query.releaseYearFilter {
        case .none: break
        case .some(.none): return MoviePage(page: page, totalPages: 1, totalResults: 0, results: [])
        case .some(.some(let year)):
            filters += " AND m.release_year = ?"
            arguments.append(.integer(Int64(year)))
        }
        if let language = query.originalLanguageFilter {
            filters += " AND m.original_language = ?"
            arguments.append(.text(language))
        }
        if !query.includeAdult { filters += " AND m.adult = 0" }
        let matches = """
            FROM search_movies_text JOIN search_movies m ON m.id = search_movies_text.rowid
            WHERE search_movies_text MATCH ?\(filters)
            """
        let total = try db.scalarInt("SELECT count(*) " + matches, arguments) ?? 0
        let offset = (page - 1) * LocalSearchQuery.pageSize
        var movies: [MovieSummary] = []
        if offset < total {
            let rows = try db.query(
                """
                SELECT m.summary \(matches)
                ORDER BY CASE
                        WHEN m.id IN (SELECT rowid FROM search_movies_text WHERE search_movies_text MATCH ?) THEN 0
                        WHEN m.id IN (SELECT rowid FROM search_movies_text WHERE search_movies_text MATCH ?) THEN 1
                        ELSE 2 END,
                    m.popularity DESC, m.id
                LIMIT ? OFFSET ?
                """,
                arguments + [
                    .text(expression.titleStart), .text(expression.inTitles),
                    .integer(Int64(LocalSearchQuery.pageSize)), .integer(Int64(offset)),
                ])
            let decoder = JSONDecoder()
            movies = rows.compactMap { row in
                guard case .blob(let bytes) = row.values.first else { return nil }
                return try? decoder.decode(MovieSummary.self, from: Data(bytes))
            }
        }
        let totalPages = max(1, (total + LocalSearchQuery.pageSize - 1) / LocalSearchQuery.pageSize)
        return MoviePage(page: page, totalPages: totalPages, totalResults: total, results: movies)
    }
}
