#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// Percent-encodes query items strictly (only RFC 3986 unreserved characters stay literal).
enum QueryEncoding {
    static func encode(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = escape(item.name)
            guard let value = item.value else { return name }
            return name + "=" + escape(value)
        }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
    }
}
