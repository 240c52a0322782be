#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// Catalog answers stored in SQLite, keyed by `CatalogRequest.cacheKey`.
public struct CatalogCache: Sendable {
    public struct Entry: Sendable {
        public var payload: CatalogPayload
        public var fetchedAt: Date
    }

    let database: Database

    static let migrations: [MovieStore.Migration] = [
        ("v1-catalog-cache", { db in
            try db.execute("""
                CREATE TABLE catalog_cache (
                    key TEXT PRIMARY KEY NOT NULL,
                    payload BLOB NOT NULL,
                    fetched_at REAL NOT NULL
                );
                """)
        }),
    ]

    public init(database: Database) {
        self.database = database
    }

    public func load(_ key: String) async throws -> Entry? {
        let row = try await database.read { db in
            try db.queryOne("SELECT payload, fetched_at FROM catalog_cache WHERE key = ?", [.text(key)])
        }
        guard let row else { return nil }
        // An entry from an older payload shape is treated as not cached; it is replaced on refetch.
        guard let payload = Self.decodePayload(try row.blob(0)) else { return nil }
        return Entry(payload: payload, fetchedAt: Date(timeIntervalSince1970: try row.double(1)))
    }

    /// Stores `payload` under `key`, and indexes its movies for offline search in the same transaction.
    public func store(_ key: String, _ payload: CatalogPayload, fetchedAt: Date) async throws {
        let bytes = [UInt8](try JSONEncoder().encode(payload))
        try await database.write { db in
            try db.run(
                "INSERT OR REPLACE INTO catalog_cache (key, payload, fetched_at) VALUES (?, ?, ?)",
                [.text(key), .blob(bytes), .real(fetchedAt.timeIntervalSince1970)])
            try LocalMovieIndex.index(payload.indexedMovies, storedAt: fetchedAt, in: db)
        }
    }

    /// A stored payload, or nil when it is from an older payload shape.
    static func decodePayload(_ bytes: [UInt8]) -> CatalogPayload? {
        try? JSONDecoder().decode(CatalogPayload.self, from: Data(bytes))
    }
}
