#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request method: its wire name and its params and result types.
///
/// ```swift
/// struct GenresList: RPCMethod {
///     static let name = "genres.list"
///     struct Params: Decodable, Sendable { var language: String? }
///     struct Result: Encodable, Sendable { var genres: [Genre] }
/// }
/// ```
public protocol RPCMethod: Sendable {
    associatedtype Params: Decodable & Sendable
    associatedtype Result: Encodable & Sendable
    static var name: String { get }
    /// True for a control message (`server.info`, `shutdown`): started as soon as it is read, however many
    /// requests wait for a slot (on a hanging upstream, say). Like every request it waits while the output
    /// is over its budget (the client is then not reading anyway).
    /// Only for methods that answer at once from memory. Default false.
    static var isControl: Bool { get }
    /// Appends the result's JSON, as ``ResultEncoding`` writes it, to `bytes` (the reply written so far). The
    /// way is chosen where the method is declared (a result that writes its own JSON, ``JSONWritable``,
    /// writes it straight into the reply), not found by a cast on every call.
    static func write(result: Result, into bytes: inout [UInt8]) throws
}

/// A method that serves itself: its handler is the type's own `handle`, given the application's context (its
/// services) once, when it is registered (``MethodTable/register(_:context:)``). The table's entry calls it
/// directly: no closure of the application's stands between them.
public protocol ServedMethod: RPCMethod {
    associatedtype Context: Sendable
    static func handle(_ params: Params, context: Context, request: RequestContext) async throws -> Result
}

extension RPCMethod {
    public static var isControl: Bool { false }

    public static func write(result: Result, into bytes: inout [UInt8]) throws {
        bytes.append(contentsOf: try ResultEncoding.encode(result))
    }
}

extension RPCMethod where Result: JSONWritable {
    public static func write(result: Result, into bytes: inout [UInt8]) throws {
        var writer = JSONWriter(appendingTo: bytes)
        bytes = []  // the writer's array is then the only reference: appended in place, not copied
        result.write(to: &writer)
        bytes = writer.takeBytes()
    }
}

/// Params of a method that takes none. Absent params, `null`, `[]` and `{}` all decode to it.
public struct NoParams: Decodable, Sendable, Equatable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}

/// The result of a method whose result is `null` (e.g. `shutdown`).
public struct NullResult: Encodable, Sendable, Equatable {
    public init() {}
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
