import JSONRPC

/// `initialize`, for two kinds of client on the same stdio:
/// - LSP client libraries (Neovim, Emacs, pygls) managing the process: answers `serverInfo` and
///   `capabilities.movieRpc` listing the methods.
/// - MCP clients (told apart by `protocolVersion` and `clientInfo` in the params): answers the MCP
///   handshake with the negotiated version and the `tools` capability.
public struct Initialize: MovieMethod {
    public static let name = "initialize"
    public static let acceptsAnyParams = true

    /// LSP clients send many members (processId, rootUri, capabilities, …); only MCP's change the answer.
    /// Any params are accepted: a `protocolVersion` that is not a string just means "not MCP".
    public struct Params: Decodable, Sendable {
        public var protocolVersion: String?
        public var clientInfo: JSONValue?

        private enum CodingKeys: String, CodingKey { case protocolVersion, clientInfo }

        public init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: CodingKeys.self) else { return }
            protocolVersion = try? container.decodeIfPresent(String.self, forKey: .protocolVersion)
            clientInfo = try? container.decodeIfPresent(JSONValue.self, forKey: .clientInfo)
        }
    }

    public enum Result: Encodable, Sendable {
        case lsp(LSPResult)
        case mcp(MCPResult)

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .lsp(let result): try result.encode(to: encoder)
            case .mcp(let result): try result.encode(to: encoder)
            }
        }
    }

    public struct Info: Encodable, Sendable {
        public var name: String
        public var version: String
        public var title: String?
    }

    public struct LSPResult: Encodable, Sendable {
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

    public struct MCPResult: Encodable, Sendable {
        public struct Capabilities: Encodable, Sendable {
            public struct Tools: Encodable, Sendable { public var listChanged: Bool }
            public var tools: Tools
        }
        public var protocolVersion: String
        public var capabilities: Capabilities
        public var serverInfo: Info
        public var instructions: String
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        var info = Info(name: ServerConfiguration.name, version: ServerConfiguration.version)
        if let requested = params.protocolVersion, params.clientInfo != nil {
            info.title = "movie-rpc"
            return .mcp(MCPResult(
                protocolVersion: MCPProtocol.negotiate(requested), capabilities: .init(tools: .init(listChanged: false)),
                serverInfo: info, instructions: MCPProtocol.instructions))
        }
        let methods = (MethodList.all.map { $0.name } + MethodList.rawMethods).sorted()
        return .lsp(LSPResult(
            serverInfo: info, capabilities: .init(movieRpc: .init(methods: methods, framing: server.framing ?? "newline"))))
    }
}

/// LSP-style `shutdown`: answers null; `exit` (or end of input) then ends the process.
public struct Shutdown: MovieMethod {
    public static let name = "shutdown"
    /// Read and answered ahead of any backlog: a client ending the session never waits for it.
    public static let isControl = true
    public typealias Params = NoParams
    public typealias Result = NullResult

    public static func handle(_ params: NoParams, context server: ServerContext, request: RequestContext) async throws -> NullResult {
        server.shutdownRequested()
        return NullResult()
    }
}
