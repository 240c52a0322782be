#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC

/// The MCP tools view of the public methods, derived from the OpenRPC document (never written twice):
/// one tool per method, `movies.popular` → `movies_popular`, its params as `inputSchema` and its result
/// as `outputSchema`, with every `$ref` into `components.schemas` inlined so each schema stands alone.
struct MCPToolCatalog: Sendable {
    struct Tool: Sendable {
        let name: String
        let method: String
        /// The tool's entry in `tools/list`, encoded once.
        let listing: JSONValue
    }

    /// Protocol plumbing, not tools.
    static let excludedMethods: Set<String> = ["initialize", "shutdown", "rpc.discover"]

    let tools: [Tool]
    private let byName: [String: Tool]

    static func toolName(for method: String) -> String {
        method.replacing(".", with: "_")
    }

    init(document: Data) throws {
        let root = try JSONDecoder().decode(JSONValue.self, from: document)
        guard case .array(let methods)? = root["methods"] else {
            throw ResponseError.internalError
        }
        let schemas: [String: JSONValue]
        if case .object(let members)? = root["components"]?["schemas"] { schemas = members } else { schemas = [:] }

        var tools: [Tool] = []
        for method in methods {
            guard case .string(let name)? = method["name"], !Self.excludedMethods.contains(name) else { continue }
            var properties: [String: JSONValue] = [:]
            var required: [JSONValue] = []
            if case .array(let params)? = method["params"] {
                for param in params {
                    guard case .string(let paramName)? = param["name"] else { continue }
                    var schema = Self.inline(param["schema"] ?? [:], schemas: schemas, depth: 0)
                    if case .string(let description)? = param["description"], case .object(var members) = schema {
                        members["description"] = .string(description)
                        schema = .object(members)
                    }
                    properties[paramName] = schema
                    if param["required"] == .bool(true) { required.append(.string(paramName)) }
                }
            }
            var input: [String: JSONValue] = [
                "type": "object", "properties": .object(properties), "additionalProperties": false,
            ]
            if !required.isEmpty { input["required"] = .array(required) }
            var listing: [String: JSONValue] = [
                "name": .string(Self.toolName(for: name)),
                "title": .string(name),
                "description": method["description"] ?? method["summary"] ?? .string(name),
                "inputSchema": .object(input),
            ]
            // MCP requires an object output schema; methods answering null or arrays have none.
            let output = Self.inline(method["result"]?["schema"] ?? [:], schemas: schemas, depth: 0)
            if output["type"] == "object" { listing["outputSchema"] = output }
            tools.append(Tool(name: Self.toolName(for: name), method: name, listing: .object(listing)))
        }
        self.tools = tools
        self.byName = Dictionary(tools.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func tool(named name: String) -> Tool? { byName[name] }

    /// Replaces `{"$ref": "#/components/schemas/X"}` with X, recursively (our schemas are not recursive;
    /// the depth bound only guards against a future mistake).
    private static func inline(_ value: JSONValue, schemas: [String: JSONValue], depth: Int) -> JSONValue {
        guard depth < 32 else { return value }
        switch value {
        case .object(let members):
            if case .string(let reference)? = members["$ref"], reference.hasPrefix("#/components/schemas/"),
                let target = schemas[String(reference.dropFirst("#/components/schemas/".count))]
            {
                return inline(target, schemas: schemas, depth: depth + 1)
            }
            return .object(members.mapValues { inline($0, schemas: schemas, depth: depth + 1) })
        case .array(let items):
            return .array(items.map { inline($0, schemas: schemas, depth: depth + 1) })
        default:
            return value
        }
    }
}
