import JSONRPC
import MovieCore

/// `images.fetch`: a poster or backdrop downloaded once into the on-disk image cache, for clients (such
/// as editors) that show a local file.
public struct ImagesFetch: MovieMethod {
    public static let name = "images.fetch"

    public struct Params: Decodable, Sendable {
        public var path: String
        public var size: String?
    }

    public struct Result: Encodable, Sendable {
        public var file: String
        public var url: String
        public var bytes: Int
        public var contentType: String
        public var source: String
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        guard ImageCache.isValidPath(params.path) else {
            throw ResponseError.invalidParams(
                "path must be a TMDB image path like \"/abc123.jpg\"", field: "path")
        }
        let size = params.size ?? "w500"
        guard ImageCache.sizes.contains(size) else {
            throw ResponseError.invalidParams(
                "size must be one of \(ImageCache.sizes.sorted().joined(separator: ", "))", field: "size")
        }
        let image = try await server.services.images.fetch(path: params.path, size: size)
        return Result(
            file: image.file, url: image.url, bytes: image.bytes, contentType: image.contentType,
            source: image.source.rawValue)
    }
}
