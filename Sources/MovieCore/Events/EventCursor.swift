import Foundation

/// A position in the newest-first order of events, `(timestamp, id)`: the next page holds the events
/// strictly after it. Because the position is a key rather than an offset, a cursor stays valid while
/// events are added or deleted: no event is returned twice and none that existed when paging started is
/// skipped.
///
/// On the wire it is an opaque string (base64url of `e1.<millis>.<id>`).
public struct EventCursor: Sendable, Hashable {
    public var timestampMillis: Int64
    public var id: Int64

    public init(timestampMillis: Int64, id: Int64) {
        self.timestampMillis = timestampMillis
        self.id = id
    }

    /// Parses a token made by ``token``; nil when it is not one.
    public init?(token: String) {
        guard token.utf8.count <= 64 else { return nil }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else {
            return nil
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "e1", let millis = Int64(parts[1]), let id = Int64(parts[2]) else {
            return nil
        }
        self.init(timestampMillis: millis, id: id)
    }

    /// The opaque string clients send back.
    public var token: String {
        Data("e1.\(timestampMillis).\(id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
