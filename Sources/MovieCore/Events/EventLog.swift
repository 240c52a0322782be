import SQLiteStore

/// The activity log: events recorded by the server and added by testers.
public final class EventLog: Sendable {
    static let migrations: [MovieStore.Migration] = []
}
