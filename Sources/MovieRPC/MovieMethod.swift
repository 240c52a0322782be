import JSONRPC

/// A movie-rpc method: an `RPCMethod` that also knows how to serve itself.
///
/// Adding a method = one file with its type + one line in `MethodList.all` + its entry in
/// `schema/openrpc.json`.
public protocol MovieMethod: RPCMethod {
    static func handle(_ params: Params, server: ServerContext, request: RequestContext) async throws -> Result
    /// True for protocol plumbing whose params are defined by others (LSP `initialize`).
    static var acceptsAnyParams: Bool { get }
}

extension MovieMethod {
    public static var acceptsAnyParams: Bool { false }
}
