/// Why ``DatabaseMigrator/migrate(_:)`` refused to run.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `schema_migrations` records migrations this build does not know: the database was written by a
    /// newer version of the application. Nothing was changed.
    case newerSchema(unknown: [String])
    /// The same identifier was registered twice (a programming error). Nothing was changed.
    case duplicateIdentifier(String)

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .newerSchema(let unknown):
            return "database was migrated by a newer version (unknown migrations: \(unknown.joined(separator: ", ")))"
        case .duplicateIdentifier(let identifier):
            return "migration '\(identifier)' registered twice"
        }
    }
}
