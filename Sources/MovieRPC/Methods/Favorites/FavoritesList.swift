#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONRPC
import MovieCore

/// `favorites.list`: the logged-in user's favorites, newest first, from the local database (works offline).
/// With `groupBy: "genre"`, sections with a genre header each, like a table: a movie with several genres
/// appears under each, sections sorted by genre name, movies without a genre last under "Other" (id 0).
public struct FavoritesList: MovieMethod {
    public static let name = "favorites.list"

    public enum Grouping: String, Decodable, Sendable, RawStringParam {
        case genre
    }

    public struct Params: Decodable, Sendable {
        public var groupBy: Grouping?
        public var posterSize: String?
    }

    public struct Section: Sendable {
        public var genre: Genre
        public var movies: [FavoriteWire]
    }

    /// `{favorites}` or, grouped, `{sections}`; `written` is one of those already written as JSON (what
    /// the handler returns, from `FavoritesListCache`).
    public enum Result: WireEncodable, Sendable {
        case favorites([FavoriteWire])
        case sections([Section])
        case written(EncodedJSON)

        public func write(to writer: inout JSONWriter) {
            switch self {
            case .favorites(let favorites):
                writer.object { writer in
                    writer.key("favorites")
                    writer.array(favorites) { writer, favorite in favorite.write(to: &writer) }
                }
            case .sections(let sections):
                writer.object { writer in
                    writer.key("sections")
                    writer.array(sections) { writer, section in
                        writer.object { writer in
                            writer.key("genre")
                            writer.object { writer in
                                writer.member("id", section.genre.id)
                                writer.member("name", section.genre.name)
                            }
                            writer.key("movies")
                            writer.array(section.movies) { writer, favorite in favorite.write(to: &writer) }
                        }
                    }
                }
            case .written(let json):
                writer.value(json)
            }
        }

        public var writtenJSON: [UInt8] {
            if case .written(let json) = self { return json.bytes }  // served as kept: shared, not copied
            var writer = JSONWriter()
            write(to: &writer)
            return writer.bytes
        }
    }

    /// The header of movies without a genre.
    static let otherGenre = Genre(id: 0, name: "Other")

    public static func handle(
        _ params: Params, context server: ServerContext, request: RequestContext
    ) async throws -> Result {
        let sizes = try ImageSizes.validated(poster: params.posterSize, backdrop: nil)
        // The session and the favorites' revision in the one read `favorites.contains` takes (shared by the
        // calls waiting at the same time); a pull that is due starts after it, in the background.
        let current = try await server.services.currentUserFavoriteIDs()
        let userID = current.userID
        await server.services.sync?.pullIfStale()
        let favorites = server.services.favorites
        let grouped = params.groupBy == .genre
        let names: [Int: String]? = if grouped { await genreNames(server.services.repository) } else { nil }
        let key = FavoritesListCache.Key(
            userID: userID, grouped: grouped, posterSize: sizes.poster, backdropSize: sizes.backdrop)
        let cache = server.favoritesListCache
        if let revision = current.revision, let json = cache.answer(for: key, revision: revision, genreNames: names) {
            return .written(json)
        }
        let (revision, list) = try await favorites.revisedList(userID: userID)
        let result: Result
        if let names {
            result = .sections(group(list, names: names, sizes: sizes))
        } else {
            result = .favorites(list.map { FavoriteWire($0, sizes: sizes) })
        }
        let json = EncodedJSON(result)
        if let revision { cache.keep(json, for: key, revision: revision, genreNames: names) }
        return .written(json)
    }

    /// Sections by genre; `favorites` is newest first and each section keeps that order.
    static func group(_ favorites: [Favorite], names: [Int: String], sizes: ImageSizes) -> [Section] {
        var byGenre: [Int: [FavoriteWire]] = [:]
        var other: [FavoriteWire] = []
        for favorite in favorites {
            let wire = FavoriteWire(favorite, sizes: sizes)
            let genreIDs = Set(favorite.movie.genreIds)
            if genreIDs.isEmpty { other.append(wire) }
            for id in genreIDs { byGenre[id, default: []].append(wire) }
        }
        var sections = byGenre.map { id, movies in
            Section(genre: Genre(id: id, name: names[id] ?? "Genre \(id)"), movies: movies)
        }
        sections.sort { ($0.genre.name, $0.genre.id) < ($1.genre.name, $1.genre.id) }
        if !other.isEmpty { sections.append(Section(genre: otherGenre, movies: other)) }
        return sections
    }

    /// Genre names from the repository (its cache when offline), else the demo catalog's names, which
    /// are TMDB's.
    static func genreNames(_ repository: MovieRepository) async -> [Int: String] {
        var names = Dictionary(DemoCatalog.embedded.genres.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let policy: CachePolicy = await repository.isOffline ? .cacheOnly : .cacheFirst
        do {
            for genre in try await repository.genres(language: nil, policy: policy).value {
                names[genre.id] = genre.name
            }
        } catch {
            // The demo names stand in; a list must not fail for want of headers.
        }
        return names
    }
}
