import JSONRPC

/// `server.info`: what is running, in which framing, on which catalog and data directory.
public struct ServerInfo: MovieMethod {
    public static let name = "server.info"
    public typealias Params = NoParams

    public struct Result: Encodable, Sendable, Equatable {
        public var name: String
        public var version: String
        public var protocolVersion: String
        public var framing: String
        public var catalog: String
        public var dataDirectory: String
    }

    public static func handle(_ params: NoParams, server: ServerContext, request: RequestContext) async throws -> Result {
        Result(
            name: ServerConfiguration.name, version: ServerConfiguration.version, protocolVersion: "2.0",
            framing: server.framing ?? "newline", catalog: server.configuration.catalogMode,
            dataDirectory: server.configuration.dataDirectory.path)
    }
}
