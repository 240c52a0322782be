import Foundation

/// Where movie-rpc keeps its database, image cache and session: `MOVIE_RPC_HOME`, else
/// `$XDG_DATA_HOME/movie-rpc`, else `~/.local/share/movie-rpc`. Created 0700.
public struct DataDirectory: Sendable, Equatable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public static func resolve(environment: [String: String]) -> DataDirectory {
        if let home = environment["MOVIE_RPC_HOME"], !home.isEmpty {
            return DataDirectory(path: home)
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return DataDirectory(path: (xdg as NSString).appendingPathComponent("movie-rpc"))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return DataDirectory(path: (home as NSString).appendingPathComponent(".local/share/movie-rpc"))
    }

    /// Creates the directory (and parents) with mode 0700, and tightens it if it already exists.
    public func prepare() throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = chmod(path, 0o700)
    }

    public func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }
}
