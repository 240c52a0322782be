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
    /// Seconds per TMDB or Firebase request; fractions work (`MOVIE_RPC_TMDB_TIMEOUT=2` or `0.5`).
    public var tmdbTimeoutSeconds: Double = 10
    public var tmdbMaxRetryAfter: Double = 10
    public var offlineWindow: Double = 15
    public var imageBaseURL: String?
    /// `MOVIE_RPC_IMAGE_HOSTS`: hosts besides the image host that `images.fetch` may be redirected to.
    public var imageRedirectHosts: [String] = []
    /// `MOVIE_RPC_MAX_EVENTS`: the most events the activity log keeps (default 1,000,000).
    public var maxEvents: Int = 1_000_000
    /// `MOVIE_RPC_RECORD_EVENTS=0`: record no activity events (events.add still works).
    public var recordEvents = true
    /// `MOVIE_RPC_EVENTS_SCOPE=all`: the events methods see every user's events (for testers).
    public var eventsScope: ServicesConfiguration.EventsScope = .user
    /// PBKDF2 iterations for new password hashes, from `MOVIE_RPC_PASSWORD_ITERATIONS` (at least 1000).
    public var passwordIterations: Int = PasswordHasher.defaultIterations
    /// Firebase Auth from `FIREBASE_API_KEY` (+ `FIREBASE_AUTH_EMULATOR_HOST`); nil → local accounts.
    public var firebase: FirebaseConfiguration?

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
        var configuration = ServerConfiguration(
            dataDirectory: DataDirectory.resolve(environment: environment),
            tmdbAccessToken: value("TMDB_ACCESS_TOKEN"),
            tmdbAPIKey: value("TMDB_API_KEY"),
            tmdbBaseURL: value("TMDB_BASE_URL").flatMap(URL.init(string:)),
            maxMessageSize: value("MOVIE_RPC_MAX_MESSAGE_SIZE").flatMap(Int.init) ?? 16 * 1024 * 1024)
        if let seconds = value("MOVIE_RPC_TMDB_TIMEOUT").flatMap(Double.init), seconds.isFinite, seconds > 0 {
            configuration.tmdbTimeoutSeconds = seconds
        }
        if let seconds = value("MOVIE_RPC_TMDB_MAX_RETRY_AFTER").flatMap(Double.init) {
            configuration.tmdbMaxRetryAfter = seconds
        }
        configuration.imageBaseURL = value("TMDB_IMAGE_BASE_URL")
        configuration.imageRedirectHosts = (value("MOVIE_RPC_IMAGE_HOSTS") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let seconds = value("MOVIE_RPC_OFFLINE_WINDOW").flatMap(Double.init) { configuration.offlineWindow = seconds }
        if let count = value("MOVIE_RPC_MAX_EVENTS").flatMap(Int.init), count > 0 { configuration.maxEvents = count }
        if let flag = value("MOVIE_RPC_RECORD_EVENTS") {
            configuration.recordEvents = !["0", "false", "no", "off"].contains(flag.lowercased())
        }
        if let scope = value("MOVIE_RPC_EVENTS_SCOPE") {
            configuration.eventsScope = ServicesConfiguration.EventsScope(rawValue: scope.lowercased()) ?? .user
        }
        if let iterations = value("MOVIE_RPC_PASSWORD_ITERATIONS").flatMap(Int.init) {
            configuration.passwordIterations = max(PasswordHasher.minimumIterations, iterations)
        }
        if let apiKey = value("FIREBASE_API_KEY") {
            configuration.firebase = FirebaseConfiguration(
                apiKey: apiKey, emulatorHost: value("FIREBASE_AUTH_EMULATOR_HOST"),
                timeoutSeconds: configuration.tmdbTimeoutSeconds,
                tokenKeyFile: TokenSealer.defaultKeyPath(environment: environment))
        }
        return configuration
    }

    /// What the domain layer needs of this configuration.
    public var services: ServicesConfiguration {
        let credential: ServicesConfiguration.Credential?
        if let token = tmdbAccessToken {
            credential = .accessToken(token)
        } else if let key = tmdbAPIKey {
            credential = .apiKey(key)
        } else {
            credential = nil
        }
        var services = ServicesConfiguration(
            dataDirectory: dataDirectory, tmdbCredential: credential, tmdbBaseURL: tmdbBaseURL,
            tmdbTimeoutSeconds: tmdbTimeoutSeconds, tmdbMaxRetryAfter: tmdbMaxRetryAfter, offlineWindow: offlineWindow)
        if let imageBaseURL { services.imageBaseURL = imageBaseURL }
        services.imageRedirectHosts = imageRedirectHosts
        services.maxEvents = maxEvents
        services.recordEvents = recordEvents
        services.eventsScope = eventsScope
        services.passwordIterations = passwordIterations
        services.firebase = firebase
        return services
    }

    /// `demo` without a TMDB credential, `tmdb` with one.
    public var catalogMode: String {
        tmdbAccessToken == nil && tmdbAPIKey == nil ? "demo" : "tmdb"
    }
}
