extension TMDBClient {
    /// TMDB's secure image base; a full URL is `base + size + file path`.
    public static let imageBaseURL = "https://image.tmdb.org/t/p/"
    /// Valid poster sizes, smallest first.
    public static let posterSizes = ["w92", "w154", "w185", "w342", "w500", "w780", "original"]
    /// Valid backdrop sizes, smallest first.
    public static let backdropSizes = ["w300", "w780", "w1280", "original"]
    /// Valid profile (person) sizes.
    public static let profileSizes = ["w45", "w185", "h632", "original"]
    /// Valid logo sizes.
    public static let logoSizes = ["w45", "w92", "w154", "w185", "w300", "w500", "original"]
    /// Valid still (TV episode) sizes.
    public static let stillSizes = ["w92", "w185", "w300", "original"]

    private static let allImageSizes = Set(posterSizes + backdropSizes + profileSizes + logoSizes + stillSizes)

    /// The full image URL for a TMDB file path such as `/abc.jpg`.
    /// - Returns: `nil` when `path` is `nil` or empty (TMDB's "no image"), or when `size` is not one of
    ///   TMDB's image sizes (see ``posterSizes``, ``backdropSizes``, ``profileSizes``, ``logoSizes``,
    ///   ``stillSizes``).
    /// - Parameter base: the image host's base ending in `/`; ``imageBaseURL`` unless configured otherwise.
    /// This is the one image-URL builder: lists, details and `images.fetch` downloads all use it.
    public static func imageURL(path: String?, size: String, base: String = imageBaseURL) -> String? {
        guard let path, !path.isEmpty, allImageSizes.contains(size) else { return nil }
        return base + size + (path.hasPrefix("/") ? path : "/" + path)
    }
}
