/// A request id as the client sent it: an integer or a string, echoed back verbatim.
public enum RequestID: Sendable, Hashable, Codable, CustomStringConvertible {
    case int(Int)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            // Says both kinds, and the integer range: 2^63 is an integer, just not one we can hold.
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "must be an integer between \(Int.min) and \(Int.max), or a string")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .int(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        }
    }
}
