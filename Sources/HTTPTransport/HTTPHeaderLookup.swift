/// Case-insensitive header lookup shared by ``HTTPRequest`` and ``HTTPResponse``.
enum HTTPHeaderLookup {
    static func value(forHeader name: String, in headers: [String: String]) -> String? {
        if let exact = headers[name] {
            return exact
        }
        let wanted = name.lowercased()
        return headers.first { $0.key.lowercased() == wanted }?.value
    }
}
