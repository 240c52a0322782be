#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC
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
    /// Firestore sync from `FIREBASE_PROJECT_ID` (+ `FIRESTORE_EMULATOR_HOST`, `MOVIE_RPC_SYNC_INTERVAL`),
    /// with Firebase Auth only; `MOVIE_RPC_SYNC=0` → nil.
    public var sync: SyncConfiguration?

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
            guard let value = environment[name]?.trimmingWhitespace(), !value.isEmpty else { return nil }
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
            .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
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
        configuration.sync = syncConfiguration(value, firebase: configuration.firebase,
                                               timeoutSeconds: configuration.tmdbTimeoutSeconds)
        return configuration
    }

    private static func syncConfiguration(
        _ value: (String) -> String?, firebase: FirebaseConfiguration?, timeoutSeconds: Double
    ) -> SyncConfiguration? {
        if let flag = value("MOVIE_RPC_SYNC"), ["0", "false", "no", "off"].contains(flag.lowercased()) { return nil }
        guard firebase != nil, let project = value("FIREBASE_PROJECT_ID") else { return nil }
        guard SyncConfiguration.isValidProjectID(project) else {
            Log.warning("FIREBASE_PROJECT_ID is not a project id (lowercase letters, digits, hyphens): sync is off")
            return nil
        }
        // A commit of 500 writes takes seconds (each is checked against the security rules): a minute each.
        var sync = SyncConfiguration(
            projectID: project, emulatorHost: value("FIRESTORE_EMULATOR_HOST"), timeoutSeconds: max(60, timeoutSeconds))
        if let seconds = value("MOVIE_RPC_SYNC_INTERVAL").flatMap(Double.init), seconds.isFinite, seconds > 0 {
            sync.pullInterval = seconds
        }
        return sync
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
        services.sync = sync
        return services
    }

    /// `demo` without a TMDB credential, `tmdb` with one.
    public var catalogMode: String {
        tmdbAccessToken == nil && tmdbAPIKey == nil ? "demo" : "tmdb"
    }
}
