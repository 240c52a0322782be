/// A position in the newest-first order of events, `(timestamp, id)`: the next page holds the events
/// strictly after it. Because the position is a key rather than an offset, a cursor stays valid while
/// events are added or deleted: no event is returned twice and none that existed when paging started is
/// skipped.
///
/// On the wire it is an opaque string (base64url of `e1.<millis>.<id>`, unpadded).
public struct EventCursor: Sendable, Hashable {
    public var timestampMillis: Int64
    public var id: Int64

    public init(timestampMillis: Int64, id: Int64) {
        self.timestampMillis = timestampMillis
        self.id = id
    }

    /// Parses a token made by ``token``; nil when it is not one.
    public init?(token: String) {
        guard token.utf8.count <= 64, let bytes = Base64URL.decode(token.utf8),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "e1", let millis = Int64(parts[1]), let id = Int64(parts[2]) else {
            return nil
        }
        self.init(timestampMillis: millis, id: id)
    }

    /// The opaque string clients send back.
    public var token: String {
        Base64URL.encode(Array("e1.\(timestampMillis).\(id)".utf8))
    }
}

/// Unpadded base64url (RFC 4648 §5), by hand: `Data.base64EncodedString` and three
/// `replacingOccurrences` (bridged through NSString) cost ~4 % of a 50-event `events.list` page.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            if remaining > 1 { out.append(alphabet[Int(group >> 6 & 63)]) }
            if remaining > 2 { out.append(alphabet[Int(group & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of an unpadded base64url text; nil for any other character, a length no encoding has
    /// (1 mod 4), or unused low bits that are not zero (so each value has exactly one token, as before).
    static func decode(_ text: String.UTF8View) -> [UInt8]? {
        var out: [UInt8] = []
        var group: UInt32 = 0
        var count = 0
        for byte in text {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                out += [UInt8(group >> 16 & 0xFF), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)]
                group = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2:
            guard group & 0xF == 0 else { return nil }
            out.append(UInt8(group >> 4 & 0xFF))
        case 3:
            guard group & 0x3 == 0 else { return nil }
            out += [UInt8(group >> 10 & 0xFF), UInt8(group >> 2 & 0xFF)]
        default: return nil
        }
        return out
    }
}
