#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC
import MovieCore
import Synchronization

/// What handlers serve from: the configuration and the domain services, shared by every request.
public final class ServerContext: Sendable {
    public let configuration: ServerConfiguration
    public let services: MovieServices
    /// Written `favorites.list` answers, checked against the favorites revision on every request.
    let favoritesListCache = FavoritesListCache()
    /// Written `favorites.contains` answers, checked against the favorites revision on every request.
    let favoritesContainsCache = FavoritesContainsCache()
    /// Written `events.list` pages, checked against the event log's revision on every request.
    let eventsListCache = EventsListCache()
    /// Hot catalog answers' members, written once per stored copy.
    let encodedAnswers = EncodedAnswers()
    private let state = Mutex(State())

    private struct State {
        var framing: @Sendable () -> String? = { nil }
        var shutdownRequested = false
        var onExit: @Sendable (Int32) -> Void = { _ in }
    }

    public init(configuration: ServerConfiguration, services: MovieServices) {
        self.configuration = configuration
        self.services = services
    }

    /// The framing detected on the connection, for `server.info`.
    public var framing: String? { state.withLock { $0.framing }() }

    func setFramingSource(_ source: @escaping @Sendable () -> String?) {
        state.withLock { $0.framing = source }
    }

    func setExitHandler(_ handler: @escaping @Sendable (Int32) -> Void) {
        state.withLock { $0.onExit = handler }
    }

    func shutdownRequested() {
        state.withLock { $0.shutdownRequested = true }
    }

    /// LSP `exit`: status 0 after `shutdown`, 1 without it.
    func exitRequested() {
        let (handler, clean) = state.withLock { ($0.onExit, $0.shutdownRequested) }
        handler(clean ? 0 : 1)
    }
}
