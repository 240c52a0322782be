import Foundation

/// The OpenRPC document the binary embeds (generated from `schema/openrpc.json`), and what the server
/// takes from it: the param names each method accepts.
public struct OpenRPCContract: Sendable {
    private struct Document: Decodable {
        struct Method: Decodable {
            struct Param: Decodable { let name: String }
            let name: String
            let params: [Param]
        }
        let methods: [Method]
    }

    /// The document, minified, exactly as `rpc.discover` serves it.
    public let minifiedDocument: Data
    /// Param names per method name.
    public let methodParams: [String: Set<String>]

    public static let embedded: OpenRPCContract = {
        let data = Data(OpenRPCDocumentJSON.text.utf8)
        do {
            return try OpenRPCContract(document: data)
        } catch {
            // The document is checked by unit tests at build time; an undecodable one is a build defect.
            preconditionFailure("Embedded OpenRPC document is invalid: \(error)")
        }
    }()

    public init(document: Data) throws {
        let decoded = try JSONDecoder().decode(Document.self, from: document)
        minifiedDocument = document
        methodParams = Dictionary(
            decoded.methods.map { ($0.name, Set($0.params.map(\.name))) }, uniquingKeysWith: { first, _ in first })
    }

    public var methodNames: [String] { methodParams.keys.sorted() }

    func paramNames(excluding open: [String]) -> [String: Set<String>] {
        methodParams.filter { !open.contains($0.key) }
    }
}
