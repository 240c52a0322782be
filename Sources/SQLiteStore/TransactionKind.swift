/// How a transaction takes its locks (`BEGIN DEFERRED`, `BEGIN IMMEDIATE`, `BEGIN EXCLUSIVE`).
public enum TransactionKind: Sendable, Hashable {
    /// Locks are taken on first read or write. Use for read-only work.
    case deferred
    /// The write lock is taken at once, so the transaction cannot fail later with `SQLITE_BUSY` when it
    /// first writes. Use for every write.
    case immediate
    /// Like `.immediate`; in WAL mode the two are the same.
    case exclusive

    var beginSQL: String {
        switch self {
        case .deferred: return "BEGIN DEFERRED TRANSACTION"
        case .immediate: return "BEGIN IMMEDIATE TRANSACTION"
        case .exclusive: return "BEGIN EXCLUSIVE TRANSACTION"
        }
    }
}
