import JSONRPC

/// A short text rendering of a result, for MCP clients that show text: a line per movie, genre, event or
/// favorite (at most 10), else compact JSON.
enum ToolTextRendering {
    static func render(_ value: JSONValue) -> String {
        var lines: [String] = []
        if case .string(let source)? = value["source"] { lines.append("source: \(source)") }
        // One movie (details, latest) or one favorite: its title line and overview. Checked before the
        // lists, since a movie's details carry a `genres` list of their own.
        let movie = value["movie"] ?? value
        if movie["title"] != nil {
            var line = describe(value)
            if case .string(let overview)? = movie["overview"], !overview.isEmpty { line += "\n" + overview }
            return (lines + [line]).joined(separator: "\n")
        }
        for key in ["results", "genres", "favorites", "events", "hints", "sections"] {
            guard case .array(let items)? = value[key] else { continue }
            if case .int(let page)? = value["page"], case .int(let total)? = value["totalPages"] {
                lines.append("page \(page) of \(total)")
            }
            for item in items.prefix(10) { lines.append("- " + describe(item)) }
            if items.count > 10 { lines.append("… and \(items.count - 10) more") }
            return lines.joined(separator: "\n")
        }
        return compact(value)
    }

    private static func describe(_ item: JSONValue) -> String {
        let movie = item["movie"] ?? item
        if case .string(let title)? = movie["title"] {
            var text = title
            if case .string(let date)? = movie["releaseDate"], date.count >= 4 { text += " (\(date.prefix(4)))" }
            if case .int(let id)? = movie["id"] { text += " [id \(id)]" }
            return text
        }
        if case .string(let name)? = item["name"] {
            // An event that happened several times in a row says so.
            let times = if case .int(let repeats)? = item["repeats"], repeats > 1 { " ×\(repeats)" } else { "" }
            if case .int(let id)? = item["id"] { return "\(name)\(times) [id \(id)]" }
            return name + times
        }
        if case .string(let message)? = item["message"] { return message }
        return compact(item)
    }

    private static func compact(_ value: JSONValue) -> String {
        guard let data = try? ResultEncoding.encode(value) else { return "" }
        let text = String(decoding: data, as: UTF8.self)
        return text.count > 2000 ? String(text.prefix(2000)) + "…" : text
    }
}
