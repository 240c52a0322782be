#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// The document, minified, exactly as `rpc.discover` serves it (bytes, as replies are: one copy of
    /// the generated text, shared by every reply; `Data` made from the `String` and copied again into the
    /// reply bytes cost 500,000 instructions of every start).
    public var minifiedDocument: [UInt8] { document ?? Self.embeddedDocument }
    /// Nil for the embedded document, whose 90 KB are copied out of the generated text at their first use
    /// (`rpc.discover`, MCP's tool list) rather than at every start.
    private let document: [UInt8]?
    private static let embeddedDocument = Array(OpenRPCDocumentJSON.text.utf8)
    /// Param names per method name, in the document's order.
    public let methodParams: [String: [String]]

    /// The embedded document, with the param names the generator read from it: decoding the document
    /// here instead took a millisecond of every start, before the first answer.
    public static let embedded = OpenRPCContract(document: nil, methodParams: OpenRPCDocumentJSON.paramNames)

    private init(document: [UInt8]?, methodParams: [String: [String]]) {
        self.document = document
        self.methodParams = methodParams
    }

    /// Reads the param names from `document` itself.
    public init(document: Data) throws {
        let decoded = try JSONDecoder().decode(Document.self, from: document)
        self.document = Array(document)
        methodParams = Dictionary(
            decoded.methods.map { ($0.name, $0.params.map(\.name)) }, uniquingKeysWith: { first, _ in first })
    }

    public var methodNames: [String] { methodParams.keys.sorted() }

    func paramNames(excluding open: [String]) -> [String: [String]] {
        methodParams.filter { !open.contains($0.key) }
    }
}
