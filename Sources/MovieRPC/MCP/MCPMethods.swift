#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC
import Synchronization

/// Params of MCP requests that carry only protocol metadata.
struct MCPMetaParams: Decodable, Sendable {
    var _meta: JSONValue?
    var cursor: String?
}

extension MethodList {
    /// The MCP methods, registered next to the movie methods and answered by the same handlers.
    static func registerMCP(in table: inout MethodTable, server: ServerContext, contract: OpenRPCContract) {
        let catalog = LazyToolCatalog(contract: contract)
        let methods = table  // the movie methods, for tools/call

        table.registerRaw("ping") { _, _ in Array("{}".utf8) }

        table.registerRaw("server/discover") { input, _ in
            let params = try ParamsDecoding.decode(MCPMetaParams.self, from: input, allowed: nil)
            _ = try MCPProtocol.checkMeta(params._meta)
            let result: JSONValue = [
                "resultType": "complete",
                "ttlMs": .int(MCPProtocol.cacheTTLMilliseconds),
                "cacheScope": "public",
                "supportedVersions": .array(MCPProtocol.supportedVersions.map(JSONValue.string)),
                "capabilities": ["tools": ["listChanged": false]],
                "instructions": .string(MCPProtocol.instructions),
                "_meta": [
                    "io.modelcontextprotocol/serverInfo": [
                        "name": .string(ServerConfiguration.name), "version": .string(ServerConfiguration.version),
                    ],
                ],
            ]
            return try ResultEncoding.encode(result)
        }

        table.registerRaw("tools/list") { input, _ in
            let params = try ParamsDecoding.decode(MCPMetaParams.self, from: input, allowed: nil)
            let stateless = try MCPProtocol.checkMeta(params._meta) != nil
            var result: [String: JSONValue] = ["tools": .array(try catalog.get().tools.map(\.listing))]
            if stateless {
                // 2026-07-28: tools/list is a CacheableResult; the list is fixed for the binary and the
                // same for every user.
                result["resultType"] = "complete"
                result["ttlMs"] = .int(MCPProtocol.cacheTTLMilliseconds)
                result["cacheScope"] = "public"
            }
            return try ResultEncoding.encode(JSONValue.object(result))
        }

        table.registerRaw("tools/call") { input, request in
            let params = try ParamsDecoding.decode(ToolCallParams.self, from: input, allowed: nil)
            let stateless = try MCPProtocol.checkMeta(params._meta) != nil
            guard let tool = try catalog.get().tool(named: params.name),
                let handler = methods.handler(for: tool.method)
            else {
                throw ResponseError.invalidParams("Unknown tool \(params.name)", field: "name")
            }
            // The arguments are an opaque JSON object here; they are encoded again only so the method's own
            // Params type decodes and checks them exactly as for a direct call.
            let arguments = try ResultEncoding.encode(params.arguments ?? [:])
            let output: [UInt8]
            do {
                output = try await handler(ParamsInput(paramsObject: arguments), request)
            } catch let error as ResponseError where error.code == .invalidParams {
                throw error  // Bad arguments stay protocol errors.
            } catch {
                let wire = WireErrors.map(error)
                if wire.code == .requestCancelled { throw wire }
                return try ToolCallResult.failure(wire.message, stateless: stateless)
            }
            return try ToolCallResult.success(output, stateless: stateless)
        }
    }
}

/// `tools/call` params.
struct ToolCallParams: Decodable, Sendable {
    var name: String
    var arguments: JSONValue?
    var _meta: JSONValue?
}

/// Builds `tools/call` results: the method's result as `structuredContent` (its bytes as they are) and a
/// short text rendering for clients that read only text.
enum ToolCallResult {
    static func success(_ result: [UInt8], stateless: Bool) throws -> [UInt8] {
        let text = (try? JSONDecoder().decode(JSONValue.self, from: Data(result))).map(ToolTextRendering.render) ?? ""
        var out = Array(#"{"content":[{"type":"text","text":"#.utf8)
        out.append(contentsOf: try ResultEncoding.encode(text))
        out.append(contentsOf: #"}],"isError":false,"#.utf8)
        if stateless { out.append(contentsOf: #""resultType":"complete","#.utf8) }
        out.append(contentsOf: #""structuredContent":"#.utf8)
        out.append(contentsOf: result)
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func failure(_ message: String, stateless: Bool) throws -> [UInt8] {
        var result: [String: JSONValue] = [
            "content": [["type": "text", "text": .string(message)]],
            "isError": true,
        ]
        if stateless { result["resultType"] = "complete" }
        return try ResultEncoding.encode(JSONValue.object(result))
    }
}

/// The tool catalog, built from the document on first use (startup stays cheap for clients that never
/// ask for tools).
final class LazyToolCatalog: Sendable {
    private let contract: OpenRPCContract
    /// Not a generic `Result<…, ResponseError>`: making this object at start-up would then instantiate that
    /// type's metadata, whose `Failure: Error` check, in a build that finds metadata by its mangled name
    /// (debug; release passes `-disable-concrete-type-metadata-mangled-name-accessors`), scans every
    /// conformance record of the binary (a quarter of a million instructions).
    private let catalog = Mutex<Built?>(nil)

    private enum Built: Sendable {
        case catalog(MCPToolCatalog)
        case unreadable
    }

    init(contract: OpenRPCContract) {
        self.contract = contract
    }

    func get() throws -> MCPToolCatalog {
        let built = catalog.withLock { built -> Built in
            if let built { return built }
            let made: Built
            do {
                made = .catalog(try MCPToolCatalog(document: Data(contract.minifiedDocument)))
            } catch {
                made = .unreadable
            }
            built = made
            return made
        }
        guard case .catalog(let catalog) = built else { throw ResponseError.internalError }
        return catalog
    }
}
