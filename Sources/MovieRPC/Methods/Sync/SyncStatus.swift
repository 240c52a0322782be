import JSONRPC
import MovieCore

/// `sync.status`: whether favorites and profile fields sync through Cloud Firestore for the logged-in
/// user, the state the sync is in, how many local changes wait to be pushed, when it last pushed and
/// pulled, and the last error in plain words (null after a success). Never goes to the network.
public struct SyncStatus: MovieMethod {
    public static let name = "sync.status"

    public typealias Params = NoParams

    public struct Result: Encodable, Sendable {
        public var enabled: Bool
        /// `firestore` when sync is configured, `none` otherwise (local accounts, the demo, `MOVIE_RPC_SYNC=0`).
        public var provider: String
        public var state: String
        public var pending: Int
        public var lastPushedAt: String?
        public var lastPulledAt: String?
        public var lastError: String?

        enum CodingKeys: String, CodingKey {
            case enabled, provider, state, pending, lastPushedAt, lastPulledAt, lastError
        }

        /// Every member is written, the optional ones as null.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(enabled, forKey: .enabled)
            try container.encode(provider, forKey: .provider)
            try container.encode(state, forKey: .state)
            try container.encode(pending, forKey: .pending)
            try container.encode(lastPushedAt, forKey: .lastPushedAt)
            try container.encode(lastPulledAt, forKey: .lastPulledAt)
            try container.encode(lastError, forKey: .lastError)
        }
    }

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        guard let sync = server.services.sync else {
            return Result(
                enabled: false, provider: "none", state: SyncEngine.State.disabled.rawValue, pending: 0,
                lastPushedAt: nil, lastPulledAt: nil, lastError: nil)
        }
        let status = await sync.status()
        return Result(
            enabled: status.enabled, provider: "firestore", state: status.state.rawValue, pending: status.pending,
            lastPushedAt: status.lastPushedAt.map(Timestamp.string),
            lastPulledAt: status.lastPulledAt.map(Timestamp.string), lastError: status.lastError)
    }
}
