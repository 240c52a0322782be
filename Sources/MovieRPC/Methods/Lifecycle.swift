import JSONRPC

/// LSP-style `initialize`, so editor LSP-client libraries can start and manage the process.
public struct Initialize: MovieMethod {
    public static let name = "initialize"
    public static let acceptsAnyParams = true

    /// LSP clients send many members (processId, rootUri, capabilities, …); none changes our answer.
    public struct Params: Decodable, Sendable {}

    public struct Result: Encodable, Sendable {
        public struct Info: Encodable, Sendable {
            public var name: String
            public var version: String
        }
        public struct Capabilities: Encodable, Sendable {
            public struct MovieRPC: Encodable, Sendable {
                public var methods: [String]
                public var framing: String
            }
            public var movieRpc: MovieRPC
        }
        public var serverInfo: Info
        public var capabilities: Capabilities
    }

    public static func handle(_ params: Params, server: ServerContext, request: RequestContext) async throws -> Result {
        let methods = (MethodList.all.map { $0.name } + MethodList.rawMethods).sorted()
        return Result(
            serverInfo: .init(name: ServerConfiguration.name, version: ServerConfiguration.version),
            capabilities: .init(movieRpc: .init(methods: methods, framing: server.framing ?? "newline")))
    }
}

/// LSP-style `shutdown`: answers null; `exit` (or end of input) then ends the process.
public struct Shutdown: MovieMethod {
    public static let name = "shutdown"
    public typealias Params = NoParams
    public typealias Result = NullResult

    public static func handle(_ params: NoParams, server: ServerContext, request: RequestContext) async throws -> NullResult {
        server.shutdownRequested()
        return NullResult()
    }
}
