import JSONRPC
import MovieCore

/// `events.list`: the stored events the caller may see (their own and the anonymous ones, see
/// `EventViewer`), newest first, a page at a time, optionally filtered by name, user and time. Pages are
/// keyset-based: a `nextCursor` stays valid while events are recorded, with no event repeated and none
/// skipped. A page holds at most `limit` events and about 1 MiB of them (`EventLogConfiguration`).
public struct EventsList: MovieMethod {
    public static let name = "events.list"

    public struct Params: Decodable, Sendable {
        public var limit: Int?
        public var cursor: String?
        public var name: String?
        /// Absent: every visible event; `null`: only the anonymous user's; a string: that user's (nothing,
        /// when it is another user's and the scope is not `all`).
        public var user: EventFilter.User
        public var since: String?
        public var until: String?

        enum CodingKeys: String, CodingKey {
            case limit, cursor, name, userId, since, until
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            limit = try container.decodeIfPresent(Int.self, forKey: .limit)
            cursor = try container.decodeIfPresent(String.self, forKey: .cursor)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            if !container.contains(.userId) {
                user = .any
            } else if try container.decodeNil(forKey: .userId) {
                user = .anonymous
            } else {
                user = .id(try container.decode(String.self, forKey: .userId))
            }
            since = try container.decodeIfPresent(String.self, forKey: .since)
            until = try container.decodeIfPresent(String.self, forKey: .until)
        }
    }

    /// An ``EventPageResult`` (`{events, nextCursor}`) as written, kept by ``EventsListCache``.
    public typealias Result = EncodedJSON

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let limit = try EventParams.limit(params.limit)
        let cursor = try EventParams.cursor(params.cursor)
        let filter = EventFilter(
            name: try EventParams.name(params.name), user: params.user,
            sinceMillis: try EventParams.timestamp(params.since, field: "since"),
            untilMillis: try EventParams.timestamp(params.until, field: "until"))
        let cache = server.eventsListCache
        func key(_ viewer: EventViewer) -> EventsListCache.Key {
            EventsListCache.Key(viewer: viewer, filter: filter, limit: limit, cursor: cursor)
        }
        let found = try await server.services.revisedEventList(filter, limit: limit, after: cursor) { view in
            cache.answer(for: key(view.viewer), revision: view.revision)
        }
        switch found {
        case .kept(let json):
            return json
        case .listed(let page, let view):
            let json = EncodedJSON(try EventPageResult(page))
            cache.keep(json, for: key(view.viewer), revision: view.revision)
            return json
        }
    }
}
