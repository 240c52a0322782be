import Foundation
import MovieCore

/// Everything the server is configured with, read once at startup from the environment and arguments.
public struct ServerConfiguration: Sendable {
    public static let name = "movie-rpc"
    public static let version = "0.1.0"

    public var dataDirectory: DataDirectory
    /// TMDB credential from `TMDB_ACCESS_TOKEN` (Bearer) or `TMDB_API_KEY`; nil → the demo catalog.
    public var tmdbAccessToken: String?
    public var tmdbAPIKey: String?
    public var tmdbBaseURL: URL?
    public var maxMessageSize: Int

    public init(
        dataDirectory: DataDirectory, tmdbAccessToken: String? = nil, tmdbAPIKey: String? = nil,
        tmdbBaseURL: URL? = nil, maxMessageSize: Int = 16 * 1024 * 1024
    ) {
        self.dataDirectory = dataDirectory
        self.tmdbAccessToken = tmdbAccessToken
        self.tmdbAPIKey = tmdbAPIKey
        self.tmdbBaseURL = tmdbBaseURL
        self.maxMessageSize = maxMessageSize
    }

    public static func fromEnvironment(_ environment: [String: String]) -> ServerConfiguration {
        func value(_ name: String) -> String? {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        return ServerConfiguration(
            dataDirectory: DataDirectory.resolve(environment: environment),
            tmdbAccessToken: value("TMDB_ACCESS_TOKEN"),
            tmdbAPIKey: value("TMDB_API_KEY"),
            tmdbBaseURL: value("TMDB_BASE_URL").flatMap(URL.init(string:)),
            maxMessageSize: value("MOVIE_RPC_MAX_MESSAGE_SIZE").flatMap(Int.init) ?? 16 * 1024 * 1024)
    }

    /// `demo` without a TMDB credential, `tmdb` with one.
    public var catalogMode: String {
        tmdbAccessToken == nil && tmdbAPIKey == nil ? "demo" : "tmdb"
    }
}
