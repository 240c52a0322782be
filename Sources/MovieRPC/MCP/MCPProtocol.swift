#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC

/// The Model Context Protocol's side of the server: the same process, stdio and handlers, seen as tools.
///
/// - 2025-11-25 (and earlier) clients: `initialize` (told apart from LSP's by `protocolVersion` and
///   `clientInfo` in its params), `notifications/initialized`, `ping`, `tools/list`, `tools/call`.
/// - 2026-07-28 clients: stateless `server/discover`, with the protocol version and client capabilities
///   in every request's `params._meta`.
enum MCPProtocol {
    static let supportedVersions = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The newest version that still has `initialize`.
    static let latestInitializeVersion = "2025-11-25"
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    /// `ttlMs` of the 2026-07-28 cacheable results (`server/discover`, `tools/list`): both are fixed for
    /// the life of the binary.
    static let cacheTTLMilliseconds = 3_600_000

    static let instructions = """
        Movie catalog tools backed by TMDB (or an embedded demo catalog): genres, popular movies, a genre's \
        movies, details, the latest record; accounts, favorites and an activity log. Answers say whether \
        they came from the network, the local cache or the demo catalog.
        """

    /// The version to answer an `initialize` with: the client's when supported, else our latest.
    static func negotiate(_ requested: String) -> String {
        supportedVersions.contains(requested) && requested != "2026-07-28" ? requested : latestInitializeVersion
    }

    /// `params._meta` of a 2026-07-28 request, checked: nil when the request carries no MCP metadata.
    /// Throws -32602 for an unsupported version or missing client capabilities.
    static func checkMeta(_ meta: JSONValue?) throws -> String? {
        guard let meta, case .string(let version)? = meta[versionKey] else { return nil }
        guard supportedVersions.contains(version) else {
            // 2026-07-28's dedicated code, on which clients retry with a version from `supported`.
            throw ResponseError(
                code: ErrorCode(rawValue: -32022), message: "Unsupported protocol version \(version)",
                data: [
                    "kind": "unsupportedProtocolVersion", "field": "_meta",
                    "supported": .array(supportedVersions.map(JSONValue.string)), "requested": .string(version),
                ])
        }
        guard meta[capabilitiesKey] != nil else {
            throw ResponseError.invalidParams("Missing \(capabilitiesKey) in _meta", field: "_meta")
        }
        return version
    }
}
