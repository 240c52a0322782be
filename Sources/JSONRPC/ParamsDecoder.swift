#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `Decoder` for a request's params, over bytes ``JSONStructureScanner`` has already accepted.
///
/// `JSONDecoder` cost a tenth to a seventh of a cached read's work (its generic machinery and a map of the
/// whole value, for a handful of members); this one parses the params into a small tree and decodes from
/// it. It decides as `JSONDecoder` does, so that ``ParamsDecoding`` reports the same -32602 errors: the
/// first of duplicate members wins; an integer may be written `1.0` or `1e2`; a number the type cannot
/// hold, or beyond `Double`, is a `dataCorrupted` error with no path (as Foundation's "not valid JSON"); a
/// wrong type is `typeMismatch` (`Dictionary<String, Any>` for an object, `Array<Any>` for an array); a
/// null where a value must be is `valueNotFound`; a missing member is `keyNotFound`. No `userInfo`.
struct ParamsDecoder: Decoder {
    private let storage: Storage
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The value, and its path when it is not the params themselves. The params' decoder (every request
    /// has one) holds no path, so it fits an existential's inline buffer: `init(from:)` takes it without
    /// allocating a box, which a value and a path together (32 bytes) cost on every request.
    private enum Storage {
        case params(ParamsValue)
        case nested(Nested)
    }

    private final class Nested {
        let value: ParamsValue
        let codingPath: [any CodingKey]

        init(value: ParamsValue, codingPath: [any CodingKey]) {
            self.value = value
            self.codingPath = codingPath
        }
    }

    init(_ value: ParamsValue, codingPath: [any CodingKey] = []) {
        storage = codingPath.isEmpty ? .params(value) : .nested(Nested(value: value, codingPath: codingPath))
    }

    var value: ParamsValue {
        switch storage {
        case .params(let value): value
        case .nested(let nested): nested.value
        }
    }

    var codingPath: [any CodingKey] {
        switch storage {
        case .params: []
        case .nested(let nested): nested.codingPath
        }
    }

    /// Decodes `T` from the JSON text `bytes`; throws `DecodingError` as described above.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: some ContiguousBytes) throws -> T {
        try T(from: ParamsDecoder(try ParamsValue.parse(bytes)))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw ParamsValue.mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedParams<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw ParamsValue.mismatch([Any].self, value, codingPath) }
        return UnkeyedParams(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleParam(value: value, codingPath: codingPath)
    }
}

/// A params value: the JSON tree, numbers kept as their literal text until a type asks for them, except
/// plain integers (the ids most params are), read as they are parsed. Not `indirect`: the arrays hold the
/// recursion, and a box per value was most of parsing a list of ids.
enum ParamsValue {
    case null
    case bool(Bool)
    /// An integer written plainly (`-12`, not `-0`, `1.0` or `1e2`) that `Int` holds; its text is
    /// `String(value)`.
    case integer(Int)
    case number(String)
    case string(String)
    case array([ParamsValue])
    /// Members in order, duplicates included (lookups take the first).
    case object([(String, ParamsValue)])

    /// Parses one JSON text (already validated by the structure scanner; anything else is refused).
    static func parse(_ bytes: some ContiguousBytes) throws -> ParamsValue {
        try bytes.withUnsafeBytes { raw in try parse(raw.assumingMemoryBound(to: UInt8.self)) }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> ParamsValue {
        var cursor = EnvelopeReader.Cursor(bytes: bytes)
        cursor.skipWhitespace()
        let value = try parseValue(&cursor)
        cursor.skipWhitespace()
        guard cursor.peek == nil else { throw notJSON }
        return value
    }

    private static var notJSON: DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON."))
    }

    private static func parseValue(_ cursor: inout EnvelopeReader.Cursor) throws -> ParamsValue {
        guard let first = cursor.peek else { throw notJSON }
        switch first {
        case UInt8(ascii: "{"):
            _ = cursor.take(UInt8(ascii: "{"))
            var members: [(String, ParamsValue)] = []
            cursor.skipWhitespace()
            if cursor.take(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                cursor.skipWhitespace()
                guard let key = cursor.string() else { throw notJSON }
                cursor.skipWhitespace()
                guard cursor.take(UInt8(ascii: ":")) else { throw notJSON }
                cursor.skipWhitespace()
                members.append((key, try parseValue(&cursor)))
                cursor.skipWhitespace()
            } while cursor.take(UInt8(ascii: ","))
            guard cursor.take(UInt8(ascii: "}")) else { throw notJSON }
            return .object(members)
        case UInt8(ascii: "["):
            _ = cursor.take(UInt8(ascii: "["))
            var elements: [ParamsValue] = []
            cursor.skipWhitespace()
            if cursor.take(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                cursor.skipWhitespace()
                // A list of ids is the common array: its plain integers are read here, without the call
                // and dispatch of `parseValue` per element.
                let start = cursor.offset
                if let byte = cursor.peek, byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9")),
                    let integer = plainInteger(&cursor)
                {
                    elements.append(.integer(integer))
                } else {
                    cursor.offset = start
                    elements.append(try parseValue(&cursor))
                }
                cursor.skipWhitespace()
            } while cursor.take(UInt8(ascii: ","))
            guard cursor.take(UInt8(ascii: "]")) else { throw notJSON }
            return .array(elements)
        case UInt8(ascii: "\""):
            guard let text = cursor.string() else { throw notJSON }
            return .string(text)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "-"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = cursor.offset
            if let integer = plainInteger(&cursor) { return .integer(integer) }
            cursor.offset = start
            guard cursor.skipValue() else { throw notJSON }
            let text = UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.offset])
            let literal = String(decoding: text, as: UTF8.self)
            switch literal {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default:
                guard literal.utf8.first != UInt8(ascii: "t"), literal.utf8.first != UInt8(ascii: "f"),
                      literal.utf8.first != UInt8(ascii: "n") else { throw notJSON }
                return .number(literal)
            }
        default:
            throw notJSON
        }
    }

    /// Reads an integer literal written plainly, whose text `String(value)` gives back (no `-0`, no leading
    /// zero, no fraction or exponent, at most 18 digits, which always fit): in one pass, as it is found.
    /// Nil for anything else, the cursor then somewhere inside the value.
    private static func plainInteger(_ cursor: inout EnvelopeReader.Cursor) -> Int? {
        let negative = cursor.take(UInt8(ascii: "-"))
        let first = cursor.offset
        var value = 0
        while let byte = cursor.peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            value = value &* 10 &+ Int(byte &- UInt8(ascii: "0"))
            cursor.offset += 1
        }
        let digits = cursor.offset - first
        guard digits > 0, digits <= 18, cursor.bytes[first] != UInt8(ascii: "0") || (digits == 1 && !negative) else {
            return nil
        }
        switch cursor.peek {
        case nil, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: break
        default: return nil  // `.`, `e`: a real number's literal
        }
        return negative ? -value : value
    }

    /// How `JSONDecoder` names what it found instead.
    private var foundName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer, .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }

    static func mismatch(_ type: Any.Type, _ value: ParamsValue, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, DecodingError.Context(
            codingPath: path, debugDescription: "Expected to decode \(type) but found \(value.foundName) instead."))
    }

    /// A number the asked type cannot hold: reported with no path, as Foundation does, unless
    /// ``numberPaths`` asks for it (see ``UnrepresentableNumber``).
    static func unrepresentable(_ literal: String, at path: @autoclosure () -> [any CodingKey]) -> any Error {
        if numberPaths { return UnrepresentableNumber(literal: literal, codingPath: path()) }
        return DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: "Number \(literal) is not representable."))
    }

    /// Set while `ParamsDecoding` decodes a second time to find which member held a number its type cannot
    /// hold: the first decoding reports none, as `JSONDecoder` does, and guessing it from the params named
    /// the first fractional number, which a `Double` member may well hold.
    @TaskLocal static var numberPaths = false
}

/// A number its member's type cannot hold, and where: thrown only while ``ParamsValue/numberPaths`` is set.
struct UnrepresentableNumber: Error {
    let literal: String
    let codingPath: [any CodingKey]
}

/// One value at a path: the typed reads every container shares. The path is built only when it is needed
/// (an error, a nested container): building it for every element of an array of 100 ids was most of the
/// decoding.
private struct ParamNode {
    let value: ParamsValue
    let parentPath: [any CodingKey]
    let last: Step

    /// The path's last step below `parentPath`.
    enum Step {
        case none
        case key(any CodingKey)
        case index(Int)
    }

    init(value: ParamsValue, parentPath: [any CodingKey], last: Step = .none) {
        self.value = value
        self.parentPath = parentPath
        self.last = last
    }

    var codingPath: [any CodingKey] {
        switch last {
        case .none: parentPath
        case .key(let key): parentPath + [key]
        case .index(let index): parentPath + [AnyCodingKey(intValue: index)]
        }
    }

    var isNull: Bool { if case .null = value { true } else { false } }

    private func notNull(_ type: Any.Type) throws {
        guard isNull else { return }
        throw DecodingError.valueNotFound(type, DecodingError.Context(
            codingPath: codingPath, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    func bool() throws -> Bool {
        try notNull(Bool.self)
        guard case .bool(let flag) = value else { throw ParamsValue.mismatch(Bool.self, value, codingPath) }
        return flag
    }

    func string() throws -> String {
        try notNull(String.self)
        guard case .string(let text) = value else { throw ParamsValue.mismatch(String.self, value, codingPath) }
        return text
    }

    private func literal(_ type: Any.Type) throws -> String {
        try notNull(type)
        switch value {
        case .number(let literal): return literal
        case .integer(let integer): return String(integer)
        default: throw ParamsValue.mismatch(type, value, codingPath)
        }
    }

    func floatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(_ type: F.Type) throws -> F {
        let literal = try literal(type)
        guard let number = F(literal), number.isFinite else {
            throw ParamsValue.unrepresentable(literal, at: codingPath)
        }
        return number
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        if case .integer(let integer) = value {
            guard let exact = I(exactly: integer) else {
                throw ParamsValue.unrepresentable(String(integer), at: codingPath)
            }
            return exact
        }
        let literal = try literal(type)
        if let exact = I(literal) { return exact }
        // `1.0`, `1e2`: integral values written as reals are integers to JSONDecoder too.
        let isReal = literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        guard isReal, let real = Double(literal), real.isFinite, let exact = I(exactly: real) else {
            throw ParamsValue.unrepresentable(literal, at: codingPath)
        }
        return exact
    }

    /// Any `Decodable`; the common leaf types (the elements of `[Int]`, `[String]`, optionals of them) are
    /// read directly, as `JSONDecoder` reads them, with the same errors: going through their `init(from:)`
    /// would box a container for every element.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Each type checked by comparing metatypes and handed back by a bit cast: `value as? T` was a
        // runtime cast per element (for an array, one that looked at every element again).
        // safe: each `unsafeBitCast` below converts a value to `T` only where `T` is that value's type.
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self), to: T.self) }
        if T.self == String.self { return unsafeBitCast(try string(), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try floatingPoint(Double.self), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try integer(Int64.self), to: T.self) }
        // Lists of ids: plain integers taken as they were parsed; any other element read as above, at its
        // own path, without a container per element.
        if T.self == [Int].self, case .array(let elements) = value {
            var ints: [Int] = []
            ints.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                if case .integer(let int) = element {
                    ints.append(int)
                } else {
                    ints.append(try ParamNode(value: element, parentPath: codingPath, last: .index(index)).integer(Int.self))
                }
            }
            return unsafeBitCast(ints, to: T.self)
        }
        // String enums (`cachePolicy` and the like): their `init(from:)` boxes a single-value container for
        // one string, 2,100 instructions of a cached `genres.list`; the conformance check costs a tenth.
        if let stringEnum = T.self as? any RawStringParam.Type {
            return try rawStringParam(stringEnum)
        }
        return try T(from: ParamsDecoder(value, codingPath: codingPath))
    }

    /// `E` from its raw string, with the errors of the standard library's `RawRepresentable` decoding.
    /// Called by `decode` with `E` as its `T`.
    private func rawStringParam<E: RawStringParam, T>(_ type: E.Type) throws -> T {
        let text = try string()
        guard let value = E(rawValue: text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath, debugDescription: "Cannot initialize \(E.self) from invalid String value \(text)"))
        }
        // safe: `decode` calls this only where `T` is `E` (its `as?` cast of `T.self` found `E`).
        return unsafeBitCast(value, to: T.self)
    }
}

/// A params type whose JSON form is its `String` raw value, and whose decoding is exactly the standard
/// library's for `RawRepresentable` (no `init(from:)` of its own): the params decoder then reads it from
/// the string at once, with the same errors (`ParamsDecoderTests`).
public protocol RawStringParam: RawRepresentable<String>, Decodable {}

private struct KeyedParams<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(String, ParamsValue)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        var seen = Set<String>()
        return members.compactMap { name, _ in seen.insert(name).inserted ? Key(stringValue: name) : nil }
    }

    func contains(_ key: Key) -> Bool { members.contains { $0.0 == key.stringValue } }

    private func node(_ key: Key) throws -> ParamNode {
        let name = key.stringValue
        guard let member = members.first(where: { $0.0 == name }) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return ParamNode(value: member.1, parentPath: codingPath, last: .key(key))
    }

    /// The member's node unless it is absent or null: what `decodeIfPresent` answers nil for, found with
    /// one look through the members instead of the three of the protocol's default (contains, decodeNil,
    /// decode), which made the optional params most of decoding.
    private func presentNode(_ key: Key) -> ParamNode? {
        let name = key.stringValue
        guard let member = members.first(where: { $0.0 == name }) else { return nil }
        if case .null = member.1 { return nil }
        return ParamNode(value: member.1, parentPath: codingPath, last: .key(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentNode(key)?.bool() }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentNode(key)?.string() }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentNode(key)?.floatingPoint(type)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentNode(key)?.integer(type) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentNode(key)?.integer(type) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentNode(key)?.decode(type)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try node(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try node(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try node(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try node(key).floatingPoint(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try node(key).floatingPoint(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try node(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try node(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try node(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try node(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try node(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try node(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try node(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try node(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try node(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try node(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try node(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let node = try node(key)
        return try ParamsDecoder(node.value, codingPath: node.codingPath).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let node = try node(key)
        return try ParamsDecoder(node.value, codingPath: node.codingPath).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = AnyCodingKey(stringValue: "super")
        let value = members.first(where: { $0.0 == key.stringValue })?.1 ?? .null
        return ParamsDecoder(value, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let value = members.first(where: { $0.0 == key.stringValue })?.1 ?? .null
        return ParamsDecoder(value, codingPath: codingPath + [key])
    }
}

private struct UnkeyedParams: UnkeyedDecodingContainer {
    let elements: [ParamsValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [ParamsValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element (moving past it), or `valueNotFound` at the end.
    private mutating func next(_ type: Any.Type) throws -> ParamNode {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: codingPath + [AnyCodingKey(intValue: currentIndex)],
                debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return ParamNode(value: elements[currentIndex], parentPath: codingPath, last: .index(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).bool() }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).string() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).floatingPoint(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).floatingPoint(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let node = try next([String: Any].self)
        return try ParamsDecoder(node.value, codingPath: node.codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let node = try next([Any].self)
        return try ParamsDecoder(node.value, codingPath: node.codingPath).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let node = try next(Any.self)
        return ParamsDecoder(node.value, codingPath: node.codingPath)
    }
}

private struct SingleParam: SingleValueDecodingContainer {
    let value: ParamsValue
    let codingPath: [any CodingKey]

    private var node: ParamNode { ParamNode(value: value, parentPath: codingPath) }

    func decodeNil() -> Bool { node.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try node.bool() }
    func decode(_ type: String.Type) throws -> String { try node.string() }
    func decode(_ type: Double.Type) throws -> Double { try node.floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try node.floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try node.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try node.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try node.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try node.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try node.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try node.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try node.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try node.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try node.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try node.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try node.decode(type) }
}
