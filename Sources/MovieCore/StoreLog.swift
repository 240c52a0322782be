import Foundation

/// Warnings from the domain layer go to stderr (stdout is the protocol's). MovieCore does not depend on
/// the JSON-RPC module, so it writes its own lines.
enum StoreLog {
    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("movie-rpc [warning] \(message)\n".utf8))
    }
}
