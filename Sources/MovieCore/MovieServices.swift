#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport
import SQLiteStore
import TMDB

/// Configuration of the domain services, independent of how the server was started.
public struct ServicesConfiguration: Sendable {
    public enum Credential: Sendable {
        case apiKey(String)
        case accessToken(String)
    }

    public var dataDirectory: DataDirectory
    /// nil: the embedded demo catalog.
    public var tmdbCredential: Credential?
    public var tmdbBaseURL: URL?
    /// Base of image URLs for downloads (`https://image.tmdb.org/t/p/`); overridable for tests.
    public var imageBaseURL: String = ImageCache.defaultBaseURL
    /// Hosts besides the image host that image downloads may be redirected to.
    public var imageRedirectHosts: [String] = []
    /// Seconds per request, redirects included (fractions work).
    public var tmdbTimeoutSeconds: Double
    /// The longest `Retry-After` honoured for TMDB's 429 before giving up.
    public var tmdbMaxRetryAfter: Double
    /// How long after a transport failure calls answer from the cache without trying the network.
    public var offlineWindow: TimeInterval
    /// PBKDF2 iterations for new password hashes (at least 1000; tests lower it for speed).
    public var passwordIterations: Int = PasswordHasher.defaultIterations
    /// Firebase Auth instead of local accounts, when set.
    public var firebase: FirebaseConfiguration?
    /// The most events the activity log keeps; the oldest beyond it are deleted.
    public var maxEvents: Int = 1_000_000
    /// Whether the server records what the user does (an opt-out; testers' `events.add` works either way).
    public var recordEvents = true
    /// Whose events the events methods read and delete: the current user's and the anonymous ones (the
    /// default), or every one (`MOVIE_RPC_EVENTS_SCOPE=all`, for testers).
    public var eventsScope: EventsScope = .user

    /// See ``eventsScope``.
    public enum EventsScope: String, Sendable {
        case user
        case all
    }

    /// Favorites and profile sync through Cloud Firestore (needs `firebase` too); nil: no sync.
    public var sync: SyncConfiguration?

    public init(
        dataDirectory: DataDirectory, tmdbCredential: Credential? = nil, tmdbBaseURL: URL? = nil,
        tmdbTimeoutSeconds: Double = 10, tmdbMaxRetryAfter: Double = 10, offlineWindow: TimeInterval = 15
    ) {
        self.dataDirectory = dataDirectory
        self.tmdbCredential = tmdbCredential
        self.tmdbBaseURL = tmdbBaseURL
        self.tmdbTimeoutSeconds = tmdbTimeoutSeconds
        self.tmdbMaxRetryAfter = tmdbMaxRetryAfter
        self.offlineWindow = offlineWindow
    }
}

/// The domain, assembled: the store, the catalog repository, and (as they are added) accounts,
/// favorites and the event log. One instance per server process.
public final class MovieServices: Sendable {
    public let configuration: ServicesConfiguration
    public let store: MovieStore
    public let repository: MovieRepository
    public let images: ImageCache
    /// Registration, login, the session singleton and account changes.
    public let accounts: AccountService
    /// The logged-in user's favorites.
    public let favorites: FavoritesStore
    /// The activity log (buffered recording; see `EventLog`).
    public let events: EventLog
    /// Favorites and profile sync through Cloud Firestore; nil when not configured (local accounts, the
    /// demo, `MOVIE_RPC_SYNC=0`).
    public let sync: SyncEngine?
    private let eventView: SharedRead<EventLog.View>
    /// The session and the user's favorite ids, one read shared by the `favorites.contains` calls waiting at
    /// the same time (``SharedRead``): a pipelined burst pays one hop to a reader per group, not two thread
    /// wake-ups per call (they were most of its cost: 35 µs of CPU a call, more than half in the kernel).
    private let favoriteIDsRead: SharedRead<CurrentFavoriteIDs>

    public init(configuration: ServicesConfiguration) throws {
        self.configuration = configuration
        store = try MovieStore(directory: configuration.dataDirectory)
        if let credential = configuration.tmdbCredential {
            let tmdbCredential: TMDBCredential
            switch credential {
            case .apiKey(let key): tmdbCredential = .apiKey(key)
            case .accessToken(let token): tmdbCredential = .accessToken(token)
            }
            let transport = SocketHTTPClient(timeoutSeconds: configuration.tmdbTimeoutSeconds)
            // Identical fetches are coalesced by the repository, per cache key; not again here. Every request,
            // retries included, is paced within TMDB's rate limit.
            let http = RetryingHTTPClient(
                wrapping: PacingHTTPClient(wrapping: transport), maxRetryAfter: configuration.tmdbMaxRetryAfter)
            let client = TMDBClient(
                baseURL: configuration.tmdbBaseURL ?? TMDBClient.defaultBaseURL, credential: tmdbCredential, http: http)
            // Every movie the cache stores is indexed in the same database; offline, search asks that index.
            let index = LocalMovieIndex(database: store.database)
            repository = MovieRepository(
                source: TMDBCatalogSource(client: client), cache: CatalogCache(database: store.database),
                offlineWindow: configuration.offlineWindow,
                offlineSearch: { search in try await index.search(LocalSearchQuery(search)) })
        } else {
            repository = MovieRepository(source: DemoCatalog.embedded, cache: nil)
        }
        images = ImageCache(
            directory: configuration.dataDirectory, baseURL: configuration.imageBaseURL,
            redirectHosts: configuration.imageRedirectHosts,
            http: SocketHTTPClient(timeoutSeconds: configuration.tmdbTimeoutSeconds))
        // Sync needs Firebase accounts: its documents are keyed and guarded by the Firebase user id.
        let syncConfiguration = configuration.firebase == nil ? nil : configuration.sync
        let journal = syncConfiguration.map { _ in SyncJournal() }
        accounts = AccountService(
            store: AccountStore(
                database: store.database, sealer: Self.tokenSealer(configuration.firebase), journal: journal),
            hasher: PasswordHasher(iterations: configuration.passwordIterations), firebase: configuration.firebase)
        favorites = FavoritesStore(database: store.database, journal: journal)
        if let syncConfiguration, let journal {
            sync = SyncEngine.make(configuration: syncConfiguration, database: store, accounts: accounts, journal: journal)
        } else {
            sync = nil
        }
        events = EventLog(
            database: store.database, configuration: EventLogConfiguration(maxEvents: configuration.maxEvents))
        eventView = Self.eventView(events, scope: configuration.eventsScope, accounts: accounts)
        favoriteIDsRead = SharedRead { [accounts, favorites] in
            try await accounts.readAsCurrentUser { userID, db in
                let (revision, ids) = try favorites.favoriteIDs(userID: userID, in: db)
                return CurrentFavoriteIDs(userID: userID, revision: revision, ids: ids)
            }
        }
    }

    /// What ``currentUserFavoriteIDs()`` answers.
    public struct CurrentFavoriteIDs: Sendable {
        public var userID: String
        /// The favorites revision the ids are at least as new as; nil: nothing can be kept.
        public var revision: Int?
        public var ids: Set<Int>
    }

    /// The ids of all the logged-in user's favorites (`loginRequired` when nobody is logged in), with the
    /// user's id and the favorites revision they are at least as new as (nil: nothing can be kept, see
    /// ``FavoritesStore/revision()``), so that an answer built from them can be kept under both: the
    /// session and the favorites are read together, in one read, and the ids are kept between calls while
    /// the favorites do not change (see `FavoritesStore`). Callers waiting at the same time share one read,
    /// which starts after each of them arrived, so each sees every change made before its call.
    public func currentUserFavoriteIDs() async throws -> CurrentFavoriteIDs {
        try await favoriteIDsRead.value()
    }

    /// How many reads ``currentUserFavoriteIDs()`` has made so far (tests see calls share them).
    var favoriteIDsReads: Int { favoriteIDsRead.readCount }

    /// The sealer for Firebase refresh tokens; only Firebase sessions have one, so only they need the key.
    private static func tokenSealer(_ firebase: FirebaseConfiguration?) -> TokenSealer? {
        guard let path = firebase?.tokenKeyFile else { return nil }
        do {
            return try TokenSealer.loadingKey(at: path)
        } catch {
            StoreLog.warning("Firebase sessions will not outlive this process: \(error)")
            return nil
        }
    }

    /// The logged-in user's id, or nil: the data directory's current session, read from the database.
    public func currentUserID() async -> String? { await accounts.currentUserID() }

    /// The user an event is attributed to, recorded or added: the current user as cached for recording
    /// (this process's logins and logouts show at once, another process's within a second). An add that
    /// read the session itself would queue a read per event on the connection its group commit writes on.
    public nonisolated(nonsending) func currentUserIDForEvents() async -> String? {
        await accounts.currentUserIDForRecording()
    }

    /// Whose events the events methods may read and delete now: the logged-in user's (read from the
    /// session, not the recording cache) and the anonymous ones, or all with `MOVIE_RPC_EVENTS_SCOPE=all`.
    public func eventViewer() async -> EventViewer {
        switch configuration.eventsScope {
        case .all: return .everyone
        case .user: return .user(await currentUserID())
        }
    }

    /// `events.list` for the current viewer (as ``eventViewer()`` finds it), for a caller that keeps pages
    /// (see `EventLog.revisedList`): the viewer and the log's revision come from one read, shared by the
    /// requests waiting at the same time (``SharedRead``), and the page is read only when `kept` has no
    /// answer for them. Reading the viewer apart would cost a second hop.
    public func revisedEventList<Kept: Sendable>(
        _ filter: EventFilter, limit: Int, after cursor: EventCursor?, kept: (EventLog.View) -> Kept?
    ) async throws -> EventLog.RevisedEventPage<Kept> {
        let eventView = self.eventView
        return try await events.revisedList(
            filter, view: { try await eventView.value() }, limit: limit, after: cursor, kept: kept)
    }

    /// The events' viewer and revision as one read finds them (see ``revisedEventList``).
    private static func eventView(
        _ events: EventLog, scope: ServicesConfiguration.EventsScope, accounts: AccountService
    ) -> SharedRead<EventLog.View> {
        SharedRead {
            try await events.view { db in
                switch scope {
                case .all: return .everyone
                case .user: return .user(sessionUserID(accounts, db))
                }
            }
        }
    }

    /// The logged-in user's id as `AccountService.currentUserID()` finds it (nil on a failure too), on a
    /// connection a read already holds.
    static func sessionUserID(_ accounts: AccountService, _ db: SQLiteConnection) -> String? {
        do {
            return try accounts.currentUserID(in: db)
        } catch {
            StoreLog.warning("Could not read the current session: \(error)")
            return nil
        }
    }

    /// Deletes the logged-in user's account (see `AccountService.deleteAccount`) and then their events;
    /// returns how many events were deleted.
    public func deleteAccount(password: String) async throws -> Int {
        let user = try await accounts.deleteAccount(password: password)
        return try await events.deleteEvents(ofUser: user.id)
    }

    /// Records what the user did, for the current user, in the activity log. Buffered: returns at once.
    /// Runs on its caller's executor (a request's): every recorded read passes here.
    @inlinable
    public nonisolated(nonsending) func record(_ event: AppEvent) async {
        guard configuration.recordEvents else { return }
        // With the user cached (for all but the first recording after a change of session) this runs without
        // a suspension point, and, inlined with the log's `record`, without an async frame or a hop back in
        // the method that records.
        let userID: String?
        if let cached = accounts.cachedUserForRecording() {
            userID = cached.id
        } else {
            userID = await currentUserIDForEvents()
        }
        await events.record(event, userID: userID)
    }

    /// Starts background work: a first sync when someone is logged in. Runs on its caller's executor, so
    /// that without sync it returns at once: a hop to the global executor here put Dispatch's first threads
    /// between exec and the first answer.
    public nonisolated(nonsending) func start() async {
        await sync?.start()
    }

    /// Flushes pending writes (and tries to push pending sync changes within a short deadline). Safe to
    /// call more than once.
    public func close() async {
        await sync?.close()
        await events.close()
        // Closing the last connection checkpoints the write-ahead log into the database and removes it, so
        // the next start does not read the whole log back to rebuild its index (350 KB after a bench run:
        // most of the time between exec and the first answer). Another process still open keeps it.
        do {
            try await store.database.close()
        } catch {
            StoreLog.warning("Could not close the database: \(StorageErrors.map(error))")
        }
    }
}
