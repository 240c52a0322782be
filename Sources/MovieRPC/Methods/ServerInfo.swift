import JSONRPC

/// `server.info`: what is running, in which framing, on which catalog and data directory.
public struct ServerInfo: MovieMethod {
    public static let name = "server.info"
    /// Read and answered ahead of any backlog.
    public static let isControl = true
    public typealias Params = NoParams

    public struct Result: Encodable, Sendable, Equatable {
        public var name: String
        public var version: String
        public var protocolVersion: String
        public var framing: String
        public var catalog: String
        public var dataDirectory: String
    }

    public static func handle(_ params: NoParams, context server: ServerContext, request: RequestContext) async throws -> Result {
        Result(
            name: ServerConfiguration.name, version: ServerConfiguration.version, protocolVersion: "2.0",
            framing: server.framing ?? "newline", catalog: server.configuration.catalogMode,
            dataDirectory: server.configuration.dataDirectory.path)
    }
}

/// Written directly, not through `JSONEncoder`: `server.info` is the cheapest request there is, and the
/// encoder would be most of its cost.
extension ServerInfo.Result: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("catalog", catalog)
            writer.member("dataDirectory", dataDirectory)
            writer.member("framing", framing)
            writer.member("name", name)
            writer.member("protocolVersion", protocolVersion)
            writer.member("version", version)
        }
    }
}
