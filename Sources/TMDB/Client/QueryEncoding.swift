import Foundation

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
        text.addingPercentEncoding(withAllowedCharacters: .tmdbQueryValueAllowed) ?? ""
    }
}

extension CharacterSet {
    /// RFC 3986 unreserved characters: everything else in a query value is percent-encoded
    /// (including `+`, `&`, `=` and `/`).
    static let tmdbQueryValueAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )
}
