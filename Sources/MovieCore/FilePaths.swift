#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The path arithmetic the store and the image folder do on plain `String` paths, as `NSString`'s path methods
/// did it (FoundationEssentials, the only Foundation the modules link, has no `NSString`).
enum FilePaths {
    /// `base/component`, with one slash between them; `component` alone when `base` is empty.
    static func appending(_ component: String, to base: String) -> String {
        if base.isEmpty { return component }
        return base.hasSuffix("/") ? base + component : base + "/" + component
    }

    /// The path without its last component: `/a/b` → `/a`, `/a` → `/`, `a` → "" (trailing slashes ignored).
    static func parent(of path: String) -> String {
        let trimmed = path.reversed().drop { $0 == "/" }
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        guard let slash = trimmed.firstIndex(of: "/") else { return "" }
        let parent = String(trimmed[slash...].drop { $0 == "/" }.reversed())
        return parent.isEmpty ? "/" : parent
    }

    /// The last component's extension, without its dot ("" for `.bashrc`, `a.` or no dot).
    static func pathExtension(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The user's home folder from the password database, for when `$HOME` is unset.
    static func homeFolder() -> String {
        guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return "/" }
        return String(cString: folder)
    }
}
