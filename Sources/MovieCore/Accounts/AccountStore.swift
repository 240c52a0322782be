import SQLiteStore

/// Accounts, sessions and favorites in the local database.
public struct AccountStore: Sendable {
    static let migrations: [MovieStore.Migration] = []
}
