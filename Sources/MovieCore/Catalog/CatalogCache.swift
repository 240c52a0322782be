import Foundation
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
        let payload: CatalogPayload
        do {
            payload = try JSONDecoder().decode(CatalogPayload.self, from: Data(try row.blob(0)))
        } catch {
            return nil  // An entry from an older payload shape: treat as not cached; it is replaced on refetch.
        }
        return Entry(payload: payload, fetchedAt: Date(timeIntervalSince1970: try row.double(1)))
    }

    public func store(_ key: String, _ payload: CatalogPayload, fetchedAt: Date) async throws {
        let bytes = [UInt8](try JSONEncoder().encode(payload))
        try await database.write { db in
            try db.run(
                "INSERT OR REPLACE INTO catalog_cache (key, payload, fetched_at) VALUES (?, ?, ?)",
                [.text(key), .blob(bytes), .real(fetchedAt.timeIntervalSince1970)])
        }
    }
}
