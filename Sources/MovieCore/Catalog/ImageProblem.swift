/// Why an image download was refused although the image server answered: what it sent, or where it
/// redirected, is not an image this cache stores.
public enum ImageProblem: String, Sendable, Equatable {
    /// Larger than ``ImageCache/maxBytes``; the download was abandoned as soon as that was known.
    case tooLarge
    /// A `Content-Type` that is not `image/*`, or none.
    case notAnImage
    /// No bytes (a 204, or an empty 200).
    case empty
    /// A redirect to a host other than the image host (and the hosts configured), or into the local network.
    case redirectRefused
    /// More redirects than allowed, or a redirect loop.
    case tooManyRedirects

    public var message: String {
        switch self {
        case .tooLarge: "The image is larger than \(ImageCache.maxBytes >> 20) MiB; it was not downloaded"
        case .notAnImage: "The image server did not send an image"
        case .empty: "The image server sent an empty image"
        case .redirectRefused: "The image server redirected to a host that is not allowed"
        case .tooManyRedirects: "The image server redirected too many times (a redirect loop)"
        }
    }
}
