#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPTransport
import TMDB

/// Posters and backdrops downloaded once into `<data directory>/images/<size>/<file>`, the role an
/// image library plays in the app. Concurrent requests for one image share one download; a file already
/// on disk is served without the network.
///
/// A download is refused (``ImageProblem``, never cached) when it is larger than ``maxBytes`` (stopped while
/// it streams in), empty, not `image/*`, or redirected to another host than the image host and the
/// configured `redirectHosts`, or into the local network when the image host is not there itself. The
/// files are handled by ``ImageFolder``, which never follows a link.
public actor ImageCache {
    public struct Image: Sendable, Equatable {
        public var file: String
        public var url: String
        public var bytes: Int
        /// One of ``knownTypes``' values, never the server's header as sent.
        public var contentType: String
        public var source: CatalogSourceKind
    }

    public static let sizes = Set(TMDBClient.posterSizes + TMDBClient.backdropSizes)
    public static let defaultBaseURL = TMDBClient.imageBaseURL
    /// Images larger than this are refused (posters are well under 1 MiB; originals a few MiB).
    public static let maxBytes = 20 * 1024 * 1024

    private let folder: ImageFolder
    private let baseURL: String
    private let redirects: RedirectRule
    private let http: any HTTPClient
    private var downloads: [String: Task<Image, any Error>] = [:]

    /// - Parameter redirectHosts: hosts besides the image host that a download may be redirected to.
    public init(
        directory: DataDirectory, baseURL: String = ImageCache.defaultBaseURL, redirectHosts: [String] = [],
        http: any HTTPClient
    ) {
        folder = ImageFolder(dataDirectory: directory)
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        redirects = .sameHost(or: redirectHosts)
        self.http = http
    }

    /// Checks a TMDB image path: one file name, letters, digits, `_` and `-`, with an image extension.
    /// Anything else (`..`, slashes inside, query strings) is refused before touching disk or network.
    public static func isValidPath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.utf8.count <= 200 else { return false }
        let name = path.dropFirst()
        guard let dot = name.lastIndex(of: ".") else { return false }
        let stem = name[..<dot]
        let ext = name[name.index(after: dot)...].lowercased()
        return !stem.isEmpty && ["jpg", "jpeg", "png", "svg", "webp"].contains(ext)
            && stem.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }

    public func fetch(path: String, size: String) async throws -> Image {
        guard let url = TMDBClient.imageURL(path: path, size: size, base: baseURL) else {
            throw MovieError.notFound("image \(size)\(path)")
        }
        let name = String(path.dropFirst())
        let file = folder.path(size: size, name: name)
        if let bytes = try await folder.cachedBytes(size: size, name: name) {
            return Image(file: file, url: url, bytes: bytes, contentType: Self.contentType(path), source: .cache)
        }
        if let running = downloads[url] { return try await running.value }
        let http = self.http
        guard let requestURL = URL(string: url) else { throw MovieError.notFound("image \(path)") }
        let request = HTTPRequest(url: requestURL, redirects: redirects, maxResponseBytes: Self.maxBytes)
        let folder = self.folder
        let task = Task {
            let (bytes, type) = try await Self.download(request, path: path, http: http)
            try await folder.store(bytes, size: size, name: name)
            return Image(file: file, url: url, bytes: bytes.count, contentType: type, source: .network)
        }
        downloads[url] = task
        defer { downloads[url] = nil }
        return try await task.value
    }

    /// The image's bytes and its type, or the reason it is refused.
    private static func download(_ request: HTTPRequest, path: String, http: any HTTPClient) async throws
        -> (Data, String)
    {
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch {
            switch HTTPTransportError(error) {
            case .cancelled: throw CancellationError()
            case .responseTooLarge: throw MovieError.imageRejected(.tooLarge)
            case .tooManyRedirects: throw MovieError.imageRejected(.tooManyRedirects)
            default: throw MovieError.offlineNotCached("image \(path)")
            }
        }
        switch response.statusCode {
        case 200, 203: break
        case 204: throw MovieError.imageRejected(.empty)
        case 300..<400: throw MovieError.imageRejected(.redirectRefused)
        case 404: throw MovieError.notFound("image \(path)")
        default:
            throw MovieError.upstream(
                httpStatus: response.statusCode, retryable: response.statusCode >= 500,
                message: "The image server answered HTTP \(response.statusCode)")
        }
        guard response.body.count <= maxBytes else { throw MovieError.imageRejected(.tooLarge) }
        guard !response.body.isEmpty else { throw MovieError.imageRejected(.empty) }
        guard let type = imageType(contentType: response.value(forHeader: "Content-Type"), path: path) else {
            throw MovieError.imageRejected(.notAnImage)
        }
        return (response.body, type)
    }

    /// Image types reported as such; `image/jpg` and `image/pjpeg` are JPEG as browsers read them.
    static let knownTypes: [String: String] = [
        "image/jpeg": "image/jpeg", "image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg", "image/png": "image/png",
        "image/webp": "image/webp", "image/svg+xml": "image/svg+xml", "image/gif": "image/gif",
        "image/avif": "image/avif",
    ]

    /// The type to report for a `Content-Type` header: a known image type as above, or for another well-formed
    /// `image/<subtype>` the type of the path's extension; nil for anything that is not `image/*`.
    static func imageType(contentType header: String?, path: String) -> String? {
        guard let header else { return nil }
        let mediaType = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = mediaType.trimmingWhitespace()
        // Whatever `lowercased()` makes of non-ASCII, only a known type or a token of ASCII passes.
        let lowercased = trimmed.lowercased()
        if let known = knownTypes[lowercased] { return known }
        guard lowercased.hasPrefix("image/") else { return nil }
        let subtype = lowercased.dropFirst("image/".count)
        let token = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~".unicodeScalars)
        guard !subtype.isEmpty, subtype.unicodeScalars.allSatisfy(token.contains) else { return nil }
        return contentType(path)
    }

    /// Why a file could not be written at `path`, judged from the nearest existing folder: a read-only
    /// file system or folder, a full one, or something else.
    static func writeProblem(near path: String) -> StorageProblem {
        var folder = FilePaths.parent(of: path)
        while !folder.isEmpty, folder != "/", !FileManager.default.fileExists(atPath: folder) {
            folder = FilePaths.parent(of: folder)
        }
        var info = statvfs()
        if statvfs(folder, &info) == 0 {
            if info.f_flag & UInt(ST_RDONLY) != 0 { return .readOnly }
            if info.f_bavail == 0 { return .diskFull }
        }
        return access(folder, W_OK) == 0 ? .other : .readOnly
    }

    static func contentType(_ path: String) -> String {
        switch FilePaths.pathExtension(of: path).lowercased() {
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        case "webp": return "image/webp"
        default: return "image/jpeg"
        }
    }
}
