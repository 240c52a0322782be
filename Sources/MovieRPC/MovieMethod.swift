import JSONRPC

/// A movie-rpc method: an `RPCMethod` that serves itself, given the server
/// (`handle(_:context:request:)`, called by the method table directly).
///
/// Adding a method = one file with its type + one line in `MethodList.all` + its entry in
/// `schema/openrpc.json`.
public protocol MovieMethod: ServedMethod where Context == ServerContext {
    /// True for protocol plumbing whose params are defined by others (LSP `initialize`).
    static var acceptsAnyParams: Bool { get }
}

extension MovieMethod {
    public static var acceptsAnyParams: Bool { false }
}
