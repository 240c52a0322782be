/// How a ``Database`` opens and tunes its connection.
public struct DatabaseConfiguration: Sendable, Equatable {
    /// How long to wait for another process's lock before `SQLITE_BUSY` (milliseconds).
    public var busyTimeoutMilliseconds: Int = 5000
    /// Switch to write-ahead logging (checked; opening fails if it does not take). Requires a file.
    public var walEnabled: Bool = true
    /// With WAL, also set `PRAGMA synchronous = NORMAL`: a commit is written to the WAL without an fsync
    /// (fsyncs happen at checkpoints), so a committed transaction survives the process being killed, not
    /// a power loss. `FULL` would fsync every commit, which costs milliseconds per commit on our disks.
    public var synchronousNormal: Bool = true
    /// Maximum number of cached prepared statements.
    public var statementCacheCapacity: Int = 64
    /// Extra retries of `BEGIN IMMEDIATE` on `SQLITE_BUSY` after the busy timeout.
    public var beginRetryLimit: Int = 5
    /// Open the file read-only as `immutable=1` (see ``SQLiteConnection/init(path:readOnly:immutable:busyTimeoutMilliseconds:statementCacheCapacity:)``):
    /// for a read-only directory, where SQLite cannot create the -shm file a WAL database needs. No WAL
    /// switch; migrations must all be applied already (they cannot be written).
    public var immutable: Bool = false
    /// At most this many read-only connections serve ``Database/read(_:)`` beside the writer, opened as
    /// reads need them (GRDB's default is 5). 0 sends reads to the writer.
    public var maximumReaderCount: Int = 5
    /// The writer's page cache, in KiB (`PRAGMA cache_size = -N`; SQLite's default is 2,000). The writer
    /// appends: recorded events and cache rows land on the rightmost pages of their tables and indexes,
    /// which stay cached, and the kernel keeps the rest of the file. With 2,000 KiB a recording burst grew
    /// the resident memory by the whole cache.
    public var writerCacheKiB: Int = 512
    /// The page cache of each reader, in KiB (`PRAGMA cache_size = -N`).
    /// Small, because the kernel caches the file for all of them anyway: five readers with SQLite's default
    /// would hold up to 10 MiB more, and grow towards it as reads spread over them.
    public var readerCacheKiB: Int = 256

    /// The defaults: 5 s busy timeout, WAL with `synchronous = NORMAL`, 64 cached statements, up to 5 readers.
    public init() {}
}
