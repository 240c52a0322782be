import JSONRPC
import MovieCore

/// `events.search`: every visible stored event (see `EventViewer`) whose name or a parameter value
/// contains `query`, ignoring case, newest first, a page at a time (same paging as `events.list`).
///
/// Parameter values are compared as text: strings as they are, integers in decimal, other numbers as
/// printed (`7.5`), `true`/`false`, each array element separately; keys and JSON punctuation are not
/// searched. `%`, `_`, quotes and backslashes are ordinary characters. Queries of 3 or more characters
/// use a trigram index; shorter ones scan.
public struct EventsSearch: MovieMethod {
    public static let name = "events.search"
    static let maxQueryLength = 200

    public struct Params: Decodable, Sendable {
        public var query: String
        public var limit: Int?
        public var cursor: String?
    }

    public typealias Result = EventPageResult

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        guard (1...maxQueryLength).contains(params.query.count) else {
            throw ResponseError.invalidParams("query must be 1 to \(maxQueryLength) characters", field: "query")
        }
        guard EventLog.isSearchable(params.query) else {
            throw ResponseError.invalidParams(
                "query must not contain control characters other than tab and line breaks", field: "query")
        }
        let limit = try EventParams.limit(params.limit)
        let cursor = try EventParams.cursor(params.cursor)
        let page = try await server.services.events.search(
            params.query, viewer: await server.services.eventViewer(), limit: limit, after: cursor)
        return try EventPageResult(page)
    }
}
