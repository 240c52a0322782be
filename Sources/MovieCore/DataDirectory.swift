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
            return DataDirectory(path: FilePaths.appending("movie-rpc", to: xdg))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FilePaths.homeFolder()
        return DataDirectory(path: FilePaths.appending(".local/share/movie-rpc", to: home))
    }

    /// Why the directory could not be made, in words for the person starting the server.
    public struct PrepareError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot create the data directory \(path): \(reason)" }
    }

    /// Creates the directory (and parents) with mode 0700, and tightens it if it already exists.
    /// Plain `mkdir(2)`: it runs before every first answer, and FileManager's first use costs more.
    public func prepare() throws {
        try Self.makeDirectory(path)
        _ = chmod(path, 0o700)
    }

    private static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o700) == 0 { return }
        var failure = errno
        if failure == ENOENT {
            let parent = FilePaths.parent(of: path)
            if !parent.isEmpty && parent != path {
                try makeDirectory(parent)
                if mkdir(path, 0o700) == 0 { return }
                failure = errno
            }
        }
        if failure == EEXIST {
            var status = stat()
            if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR { return }
            throw PrepareError(path: path, reason: "a file that is not a directory is in the way")
        }
        throw PrepareError(path: path, reason: String(cString: strerror(failure)))
    }

    public func file(_ name: String) -> String {
        FilePaths.appending(name, to: path)
    }
}
