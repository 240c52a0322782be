#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a request's params are: the bytes of the `params` value (decoded by the method's own type, on
/// their own: not the whole message) and the kind of value it is.
public struct ParamsInput: Sendable {
    /// The `params` value's JSON; empty when the message has none. A slice of the message: the params are
    /// read where they are, not copied into an array of their own for every request.
    public let params: ArraySlice<UInt8>
    let kind: MessageEnvelope.ParamsMember

    init(message: [UInt8], envelope: MessageEnvelope) {
        if let range = envelope.paramsRange {
            self.params = message[range]
        } else {
            self.params = []
        }
        self.kind = envelope.params
    }

    /// Params given as a standalone JSON object or null (e.g. MCP `tools/call` arguments).
    public init(paramsObject: [UInt8]) {
        self.params = paramsObject[...]
        let first = paramsObject.first(where: { $0 > 0x20 })
        self.kind = first == UInt8(ascii: "{") ? .object : first == UInt8(ascii: "n") ? .null : .invalid
    }
}

/// What a handler knows about the request it is serving.
public struct RequestContext: Sendable {
    /// The request's id; nil for a notification.
    public let id: RequestID?
    public let method: String
    let notifier: (any NotificationSending)?

    public init(id: RequestID?, method: String, notifier: (any NotificationSending)? = nil) {
        self.id = id
        self.method = method
        self.notifier = notifier
    }

    /// Sends a notification to the client (e.g. `$/progress`) while the request runs.
    public func notify<Params: Encodable & Sendable>(_ method: String, _ params: Params) {
        notifier?.sendNotification(method: method, params: params)
    }
}

/// Where replies wait to be written: a request waits for room there before it starts.
///
/// Class-bound, as ``NotificationSending`` is: a copy of the existential is then a retain, where an opaque one
/// was copied through its type's value witnesses (about 100 instructions, six times a request).
protocol ReplyRoom: AnyObject, Sendable {
    /// Whether a request must wait (`waitForRoom`) before it starts; asked first, without a suspension point.
    var isFull: Bool { get }
    func waitForRoom() async
}

/// Something that can send notifications to the client.
public protocol NotificationSending: AnyObject, Sendable {
    func sendNotification<Params: Encodable & Sendable>(method: String, params: Params)
}

/// The registry of methods: built once at startup from one explicit list, then read-only.
public struct MethodTable: Sendable {
    /// Answers a request with its result's JSON.
    public typealias Handler = @Sendable (ParamsInput, RequestContext) async throws -> [UInt8]
    /// Answers a request by appending its result's JSON to `reply` (the reply's bytes before the result):
    /// a result is written into the reply itself, not into a buffer of its own that is then copied.
    /// (`consuming`: the handler appends to the caller's array in place, never to a copy.)
    typealias ReplyWriter = @Sendable (ParamsInput, RequestContext, consuming [UInt8]) async throws -> [UInt8]
    public typealias NotificationHandler = @Sendable (ParamsInput) -> Void

    /// A request method as the dispatcher finds it: one lookup by name per request.
    struct Entry: Sendable {
        var writeReply: ReplyWriter
        /// Registered with ``RPCMethod/isControl``.
        var isControl: Bool
    }

    private var entries = NameIndex()
    private var notificationHandlers: [String: NotificationHandler] = [:]
    /// Param names each method accepts; a member not listed is rejected with -32602.
    private let allowedParams: [String: [String]]

    /// - Parameter allowedParams: for each method, the param names it accepts (from the OpenRPC document).
    ///   Methods not listed accept any members their Params type ignores.
    public init(allowedParams: [String: [String]] = [:]) {
        self.allowedParams = allowedParams
    }

    /// Registers a method that serves itself with `context`: its params are decoded into `M.Params`, it is
    /// called as `M.handle`, and its result is encoded from `M.Result`.
    public mutating func register<M: ServedMethod>(_ method: M.Type, context: M.Context) {
        let allowed = allowedParams[M.name]
        add(M.name, Entry(writeReply: { (input, request, reply: consuming [UInt8]) in
            let params = try ParamsDecoding.decode(M.Params.self, from: input, allowed: allowed)
            let result = try await M.handle(params, context: context, request: request)
            var reply = consume reply
            try M.write(result: result, into: &reply)
            return reply
        }, isControl: M.isControl))
    }

    /// Registers a typed method served by `handler`: its params are decoded into `M.Params` and its result
    /// encoded from `M.Result`.
    public mutating func register<M: RPCMethod>(
        _ method: M.Type, handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) {
        register(ServedByClosure<M>.self, context: handler)
    }

    /// Registers a method whose result is already-encoded JSON (a document served as it is).
    public mutating func registerRaw(_ name: String, handler: @escaping Handler) {
        add(name, Entry(writeReply: { (input, context, reply: consuming [UInt8]) in
            let result = try await handler(input, context)
            var reply = consume reply
            reply.append(contentsOf: result)
            return reply
        }, isControl: false))
    }

    private mutating func add(_ name: String, _ entry: Entry) {
        entries.set(name, entry)
    }

    /// Registers a notification handler (e.g. `exit`). Notifications are never answered.
    public mutating func onNotification(_ name: String, handler: @escaping NotificationHandler) {
        notificationHandlers[name] = handler
    }

    /// The method's result JSON for these params, on its own (MCP `tools/call` wraps it in its own result).
    public func handler(for name: String) -> Handler? {
        guard let writeReply = entries.entry(for: name)?.writeReply else { return nil }
        return { input, context in try await writeReply(input, context, []) }
    }
    func entry(for name: String) -> Entry? { entries.entry(for: name) }
    func notificationHandler(for name: String) -> NotificationHandler? { notificationHandlers[name] }

    /// Every registered request method, sorted.
    public var methodNames: [String] { entries.names.sorted() }
}

/// A table's methods by name, kept for the lookup every request makes: the name's bytes pick one of a few
/// dozen buckets by an FNV-1a hash, and the names there are compared. A dictionary's hashing of the name
/// (SipHash, seeded) was 300 instructions a request, half of them in setting up and finishing the hasher.
/// The keys are the server's own method names, so a name chosen to collide costs at most the comparisons
/// with the few names of one bucket.
private struct NameIndex: Sendable {
    private var buckets = Array(repeating: [(name: String, entry: MethodTable.Entry)](), count: bucketCount)

    /// Adds `name`, or replaces its entry.
    mutating func set(_ name: String, _ entry: MethodTable.Entry) {
        let bucket = Self.bucket(of: name)
        if let index = buckets[bucket].firstIndex(where: { $0.name == name }) {
            buckets[bucket][index].entry = entry
        } else {
            buckets[bucket].append((name, entry))
        }
    }

    func entry(for name: String) -> MethodTable.Entry? {
        for candidate in buckets[Self.bucket(of: name)] where candidate.name == name { return candidate.entry }
        return nil
    }

    var names: [String] { buckets.flatMap { $0.map(\.name) } }

    /// A power of two, about as many as the methods, so that most buckets hold one.
    private static let bucketCount = 64

    private static func bucket(of name: String) -> Int {
        var name = name
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return Int(truncatingIfNeeded: hash ^ (hash >> 32)) & (bucketCount - 1)
        }
    }
}

/// `M` served by a closure, so that every typed method's entry is made in one place.
private enum ServedByClosure<M: RPCMethod>: ServedMethod {
    typealias Params = M.Params
    typealias Result = M.Result

    static var name: String { M.name }
    static var isControl: Bool { M.isControl }

    static func write(result: Result, into bytes: inout [UInt8]) throws {
        try M.write(result: result, into: &bytes)
    }

    static func handle(
        _ params: Params, context handler: @Sendable (Params, RequestContext) async throws -> Result,
        request: RequestContext
    ) async throws -> Result {
        try await handler(params, request)
    }
}

/// Encodes results the one way the server does: `JSONEncoder`, unescaped slashes, no newlines.
public enum ResultEncoding {
    public static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        if let writable = value as? any JSONWritable {
            return writable.writtenJSON
        }
        return try encodeWithEncoder(value)
    }

    /// Always through `JSONEncoder` (for tests that hold `JSONWritable` output to it).
    public static func encodeWithEncoder<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return Array(try encoder.encode(value))
    }
}
