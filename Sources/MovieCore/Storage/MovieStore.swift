#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SQLiteStore

/// The one local database (`movie-rpc.sqlite` in the data directory): catalog cache, accounts, session,
/// favorites and events, each behind its own type. One writer and a pool of readers, each connection on
/// a dispatch queue of its own (see `Database`); WAL; migrations recorded in a table.
public final class MovieStore: Sendable {
    public static let fileName = "movie-rpc.sqlite"

    public let database: Database
    public let path: String

    /// Every migration, in order: each feature lists its own, and this list fixes their order forever.
    /// A schema change is a new entry at the end of its feature's list; applied entries never change.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        let all = CatalogCache.migrations + AccountStore.migrations + EventLog.migrations
            + FavoritesStore.migrations + LocalMovieIndex.migrations
            + SyncStore.migrations
        for (identifier, migrate) in all {
            migrator.registerMigration(identifier, migrate)
        }
        return migrator
    }

    /// A named schema step.
    public typealias Migration = (identifier: String, migrate: @Sendable (SQLiteConnection) throws -> Void)

    /// Why the store could not be opened, in words for the person starting the server.
    public enum OpenError: Error, CustomStringConvertible {
        case newerSchema(path: String)
        case unusable(path: String, reason: String)

        public var description: String {
            switch self {
            case .newerSchema(let path):
                return "The database \(path) was written by a newer movie-rpc; refusing to touch it. "
                    + "Use that version, or point MOVIE_RPC_HOME at another directory."
            case .unusable(let path, let reason):
                return "The database \(path) cannot be opened: \(reason)"
            }
        }
    }

    /// Opens (creating if needed) the store in `directory`.
    ///
    /// A file that is not a database (no SQLite header, or SQLite refuses it as corrupt when opening) is
    /// moved aside to `movie-rpc.sqlite.corrupt-<time>` with its -wal/-shm files, and a fresh database is
    /// started: the user keeps working and nothing is deleted. Pages damaged behind a good header are not
    /// looked for here (a full check costs time in proportion to the file); requests touching them answer
    /// -32040 `corrupt`. So do the schema's pages of a database that carries this version's schema stamp,
    /// which is opened without reading its schema (`DatabaseMigrator`); an unstamped one has its schema
    /// read, and found damaged, here.
    /// A database from a newer schema is never touched. In a read-only directory whose database has no
    /// write-ahead log, the file is opened immutable: reads work and writes fail as read-only.
    public init(directory: DataDirectory, configuration: DatabaseConfiguration = DatabaseConfiguration()) throws {
        try directory.prepare()
        let path = directory.file(Self.fileName)
        self.path = path
        // Not a database at all: moved aside before SQLite opens it, because SQLite deletes the -wal and
        // -shm files of a database it failed to open, and they are to be kept with it.
        if Self.lacksDatabaseHeader(path) {
            Self.moveAside(path)
        }
        do {
            database = try Self.openDatabase(path: path, configuration: configuration)
        } catch let error as MigrationError {
            if case .newerSchema = error { throw OpenError.newerSchema(path: path) }
            throw OpenError.unusable(path: path, reason: "\(error)")
        } catch let error as SQLiteError where error.isCorrupt {
            Self.moveAside(path)
            database = try Self.openDatabase(path: path, configuration: configuration)
        } catch let error as SQLiteError where Self.mayOpenAsSnapshot(path: path, after: error) {
            // A read-only directory whose database has no -wal/-shm files (another SQLite client closed it
            // last): SQLite cannot create the -shm it needs, but nobody can write here either, so reading
            // the file as immutable is safe. Writes then fail as read-only (-32040).
            var snapshot = configuration
            snapshot.immutable = true
            do {
                database = try Self.openDatabase(path: path, configuration: snapshot)
            } catch let error as SQLiteError {
                throw OpenError.unusable(path: path, reason: Self.reason(error))
            } catch {
                throw OpenError.unusable(path: path, reason: "\(error)")
            }
            StoreLog.warning("The data directory is read-only: serving reads from \(path); writes will fail")
        } catch let error as SQLiteError {
            throw OpenError.unusable(path: path, reason: Self.reason(error))
        }
    }

    /// Whether a failed open is the read-only-directory case that an immutable open can serve: the file is
    /// readable, and there is no write-ahead log with content (which an immutable open would ignore).
    private static func mayOpenAsSnapshot(path: String, after error: SQLiteError) -> Bool {
        guard [.cantOpen, .readonly, .perm].contains(error.code.primary) else { return false }
        guard access(path, R_OK) == 0 else { return false }
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return walSize == 0
    }

    /// Moves the database and its -wal/-shm files to `<path>.corrupt-<time>`, so a fresh one can start.
    private static func moveAside(_ path: String) {
        let aside = "\(path).corrupt-\(Int(Date().timeIntervalSince1970))"
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
        StoreLog.warning("The database was damaged; it was moved to \(aside) and a new one was started")
    }

    /// Whether `path` is a non-empty file that does not start with SQLite's header string.
    private static func lacksDatabaseHeader(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, 0) }
        guard count > 0 else { return false }
        return head[..<count].elementsEqual("SQLite format 3\0".utf8) == false
    }

    /// Why SQLite could not open the database, in words for the person starting the server.
    private static func reason(_ error: SQLiteError) -> String {
        switch error.code.primary {
        case .cantOpen, .readonly, .perm:
            return "the data directory is read-only or not accessible; SQLite: \(error.code.description)"
        case .full:
            return "the disk is full"
        default:
            return "SQLite: \(error.code.description)"
        }
    }

    private static func openDatabase(path: String, configuration: DatabaseConfiguration) throws -> Database {
        let database = try Database(path: path, configuration: configuration, migrator: migrator)
        return database
    }
}

/// Maps SQLite failures to what a user can act on. Messages never include SQL or paths.
enum StorageErrors {
    static func map(_ error: any Error) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        if error.isReadOnly { return MovieError.storage(.readOnly) }
        if error.isDiskFull { return MovieError.storage(.diskFull) }
        if error.isCorrupt { return MovieError.storage(.corrupt) }
        if error.isBusy { return MovieError.storage(.busy) }
        StoreLog.warning("Storage error \(error.code)")
        return MovieError.storage(.other)
    }

    /// Runs `body`, converting storage errors to `MovieError.storage`.
    static func mapping<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw map(error)
        }
    }
}
