import JSONRPC
import MovieCore

/// `movies.details`: everything the details screen shows about one movie.
public struct MoviesDetails: MovieMethod {
    public static let name = "movies.details"

    public struct Params: Decodable, Sendable {
        public var movieId: Int
        public var language: String?
        /// Parts fetched with the details in one TMDB request; any of them fetches all, stored as one entry.
        public var include: [DetailsPart]?
        /// The country for `watchProviders` and `certification`.
        public var region: String?
        public var posterSize: String?
        public var backdropSize: String?
        public var cachePolicy: CachePolicy?
    }

    /// The summary's members and the details' members side by side in one object.
    public struct Result: WireEncodable, Sendable {
        /// Every member but the provenance, written once per stored copy when `answers` is given, and
        /// where the answer came from: all a request writes, so the details are not held (or copied) here.
        private let members: EncodedJSON
        private let provenance: Provenance

        init(
            sourced: Sourced<MovieDetails>, sizes: ImageSizes, include: Set<DetailsPart> = [], region: String? = nil,
            answers: EncodedAnswers? = nil, request: CatalogRequest? = nil
        ) {
            let key = request.map {
                EncodedAnswers.Key(request: $0, shape: .details(sizes, parts: include, region: region))
            }
            // The members are made only when they are written (a kept answer needs no copy of the details).
            (members, provenance) = EncodedAnswers.answer(in: answers, key: key, sourced) { writer in
                DetailsMembers(details: sourced.value, sizes: sizes, include: include, region: region)
                    .write(to: &writer)
            }
        }

        public func write(to writer: inout JSONWriter) {
            writer.object(extending: members) { writer in writer.provenance(provenance) }
        }
    }

    public static func handle(_ params: Params, context server: ServerContext, request: RequestContext) async throws -> Result {
        let movieID = try CatalogParams.positiveID(params.movieId, field: "movieId")
        let language = try CatalogParams.language(params.language)
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: params.backdropSize)
        let region = try CatalogParams.country(params.region, field: "region")
        let include = Set(params.include ?? [])
        guard (params.include ?? []).count <= AppendToResponse.maxParts else {
            throw ResponseError.invalidParams(
                "include must list at most \(AppendToResponse.maxParts) parts", field: "include")
        }
        let catalogRequest: CatalogRequest = include.isEmpty
            ? .details(movieID: movieID, language: language) : .detailsWithParts(movieID: movieID, language: language)
        let sourced = try await server.services.repository.details(
            catalogRequest, policy: params.cachePolicy ?? .networkFirst)
        // The demo catalog has none of these but the IMDb id: refused, never made up.
        for part in DetailsPart.allCases where include.contains(part) && !sourced.value.has(part) {
            throw MovieError.unavailableInDemo(part.wireName)
        }
        await server.services.record(.movieViewed(movieID: movieID))
        return Result(
            sourced: sourced, sizes: sizes, include: include, region: region, answers: server.encodedAnswers,
            request: catalogRequest)
    }
}

/// TMDB's limit on `append_to_response` parts.
private enum AppendToResponse {
    static let maxParts = 20
}

extension DetailsPart {
    /// How the part is named in messages: "Credits are".
    var wireName: String {
        switch self {
        case .credits: "Credits are"
        case .videos: "Videos are"
        case .watchProviders: "Watch providers are"
        case .releaseDates: "Release dates and certifications are"
        case .externalIds: "External ids are"
        }
    }
}

extension MovieDetails {
    func has(_ part: DetailsPart) -> Bool {
        switch part {
        case .credits: credits != nil
        case .videos: videos != nil
        case .watchProviders: watchProviders != nil
        case .releaseDates: releaseDates != nil
        case .externalIds: externalIds != nil
        }
    }
}

/// A details answer's members but the provenance: the summary's and the details' side by side, then the
/// included parts.
private struct DetailsMembers {
    let details: MovieDetails
    let sizes: ImageSizes
    let include: Set<DetailsPart>
    let region: String?

    func write(to writer: inout JSONWriter) {
        MovieSummaryWire.writeFields(details.summary, to: &writer, sizes: sizes)
        writer.member("tagline", details.tagline)
        writer.member("runtime", details.runtime)
        writer.member("status", details.status)
        writer.key("genres")
        writer.genres(details.genres)
        writer.member("homepage", details.homepage)
        writer.member("imdbId", details.imdbId)
        writer.member("budget", details.budget)
        writer.member("revenue", details.revenue)
        writer.member("spokenLanguages", details.spokenLanguages)
        writer.member("productionCompanies", details.productionCompanies)
        writeParts(to: &writer)
    }

    /// The included parts, in a fixed order; each is there (the handler refused missing ones).
    private func writeParts(to writer: inout JSONWriter) {
        if include.contains(.credits), let credits = details.credits {
            writer.key("credits")
            writer.object { writer in writer.credits(credits) }
        }
        if include.contains(.videos), let videos = details.videos {
            writer.key("videos")
            writer.videos(videos)
        }
        if include.contains(.watchProviders), let providers = details.watchProviders {
            writer.key("watchProviders")
            writer.object { writer in
                let regions = region.map { [$0] } ?? providers.keys.sorted()
                for region in regions {
                    writer.key(text: region)
                    writer.object { writer in writer.watchOptionMembers(providers[region] ?? .none) }
                }
            }
        }
        if include.contains(.releaseDates), let releases = details.releaseDates {
            writer.member("certification", region.flatMap { releases[$0] }.flatMap(Release.certification(in:)))
        }
        if include.contains(.externalIds), let ids = details.externalIds {
            writer.key("externalIds")
            writer.externalIDs(ids)
        }
    }
}
