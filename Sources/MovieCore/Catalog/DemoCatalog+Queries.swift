#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import SQLiteStore
import Synchronization

/// The demo catalog's answers beyond browsing: search, discover, trending, top rated, recommendations and
/// lookup by IMDb id. Each orders the demo's own data; nothing is made up.
extension DemoCatalog {
    /// Title search with the offline index's rules (folding, prefixes, ranking, filters): the demo movies
    /// are indexed by `LocalMovieIndex` itself, in a private in-memory database built on first use, and
    /// queried on a queue of its own: a word most titles hold ranks them all (half a millisecond), which is
    /// not a cooperative thread's time to spend.
    public func search(_ query: LocalSearchQuery) async -> MoviePage {
        await withCheckedContinuation { continuation in
            DemoSearchIndex.queue.async { continuation.resume(returning: Self.searchOnIndexQueue(query)) }
        }
    }

    private static func searchOnIndexQueue(_ query: LocalSearchQuery) -> MoviePage {
        do {
            // Taken on the index's queue only: never contended, there for the connection's `Sendable`.
            return try DemoSearchIndex.shared.withLock { connection in
                try LocalMovieIndex.search(query, in: connection)
            }
        } catch {
            // Only an out-of-memory SQLite could fail here: the data and the SQL are fixed.
            StoreLog.warning("The demo catalog's search failed: SQLite \(error)")
            return MoviePage(page: max(query.page, 1), totalPages: 1, totalResults: 0, results: [])
        }
    }

    /// The movies `filter` keeps, in its `sortBy` order (TMDB's values; ties most popular first). Movies
    /// without a release date are left out by date filters, and without a runtime by runtime filters.
    /// Watch providers and certifications are not in the demo data, and are not looked at here.
    public func discover(_ filter: DiscoverFilter, page: Int) -> MoviePage {
        let language = filter.originalLanguage?.lowercased()
        let kept = data.movies.filter { movie in
            let genres = movie.genreIds ?? []
            if !filter.genreIDs.isEmpty {
                switch filter.genreMatch {
                case .all: if !filter.genreIDs.allSatisfy(genres.contains) { return false }
                case .any: if !filter.genreIDs.contains(where: genres.contains) { return false }
                }
            }
            if filter.withoutGenreIDs.contains(where: genres.contains) { return false }
            let date = movie.releaseDate ?? ""
            if let year = filter.year, LocalMovieIndex.releaseYear(date) != year { return false }
            if let from = filter.releasedFrom, date.isEmpty || date < from { return false }
            if let to = filter.releasedTo, date.isEmpty || date > to { return false }
            if let minRating = filter.minRating, (movie.voteAverage ?? 0) < minRating { return false }
            if let minVotes = filter.minVotes, (movie.voteCount ?? 0) < minVotes { return false }
            if filter.minRuntime != nil || filter.maxRuntime != nil {
                // The demo's `latest`-style records have runtime 0 or none: unknown, not a zero-minute film.
                guard let runtime = movie.runtime, runtime > 0 else { return false }
                if let minRuntime = filter.minRuntime, runtime < minRuntime { return false }
                if let maxRuntime = filter.maxRuntime, runtime > maxRuntime { return false }
            }
            if let language, (movie.originalLanguage ?? "").lowercased() != language { return false }
            return true
        }
        let order = DiscoverSortOrder(rawValue: filter.sortBy) ?? .popularityDescending
        return paginate(Self.sorted(kept, by: order), page: page)
    }

    /// Trending movies. The demo data holds one TMDB popularity snapshot, not a history, so both windows
    /// (`day`, `week`) list the movies by that popularity, most popular first.
    public func trending(window: TrendingWindow, page: Int) -> MoviePage {
        paginate(data.movies, page: page)  // `data.movies` is kept sorted by popularity
    }

    /// The best-rated movies: by vote average, then vote count. Movies with fewer than
    /// `topRatedMinVotes` votes are left out, so that a film rated by a handful of people cannot lead.
    public func topRated(page: Int) -> MoviePage {
        let rated = data.movies.filter { ($0.voteCount ?? 0) >= Self.topRatedMinVotes }
        let ordered = rated.sorted { a, b in
            if (a.voteAverage ?? 0) != (b.voteAverage ?? 0) { return (a.voteAverage ?? 0) > (b.voteAverage ?? 0) }
            if (a.voteCount ?? 0) != (b.voteCount ?? 0) { return (a.voteCount ?? 0) > (b.voteCount ?? 0) }
            return a.id < b.id
        }
        return paginate(ordered, page: page)
    }

    /// The least votes a movie needs to be in `topRated`.
    public static let topRatedMinVotes = 300

    /// Movies like `movieID`: those sharing a genre with it, the ones sharing the most genres first, then
    /// the most popular; never the movie itself. Nil when the demo has no such movie.
    public func recommendations(movieID: Int, page: Int) -> MoviePage? {
        guard let movie = data.movies.first(where: { $0.id == movieID }) else { return nil }
        let genres = Set(movie.genreIds ?? [])
        let scored = data.movies.compactMap { other -> (movie: DemoMovie, shared: Int)? in
            guard other.id != movieID else { return nil }
            let shared = (other.genreIds ?? []).filter(genres.contains).count
            return shared > 0 ? (other, shared) : nil
        }
        // A stable sort on shared genres keeps the popularity order of `data.movies` within each count.
        let ordered = scored.enumerated().sorted { a, b in
            a.element.shared != b.element.shared ? a.element.shared > b.element.shared : a.offset < b.offset
        }
        return paginate(ordered.map(\.element.movie), page: page)
    }

    /// The demo movie with this IMDb id (`tt0110413`), or nil.
    public func find(imdbID: String) -> MovieSummary? {
        let id = imdbID.lowercased()
        return data.movies.first { $0.imdbId == id }?.summary
    }

    private static func sorted(_ movies: [DemoMovie], by order: DiscoverSortOrder) -> [DemoMovie] {
        // `movies` is in popularity order, so a stable sort leaves ties most popular first.
        let indexed = Array(movies.enumerated())
        let sorted = indexed.sorted { a, b in
            switch compare(a.element, b.element, order.field) {
            case .orderedSame: return a.offset < b.offset
            case .orderedAscending: return order.ascending
            case .orderedDescending: return !order.ascending
            }
        }
        var result = sorted.map(\.element)
        if order.field == .primaryReleaseDate {
            // Movies without a date come last either way, as they cannot be placed.
            let dated = result.filter { !($0.releaseDate ?? "").isEmpty }
            result = dated + result.filter { ($0.releaseDate ?? "").isEmpty }
        }
        return result
    }

    private static func compare(
        _ a: DemoMovie, _ b: DemoMovie, _ field: DiscoverSortOrder.Field
    ) -> ComparisonResult {
        func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
            x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        switch field {
        case .popularity: return order(a.popularity, b.popularity)
        case .voteAverage: return order(a.voteAverage ?? 0, b.voteAverage ?? 0)
        case .voteCount: return order(a.voteCount ?? 0, b.voteCount ?? 0)
        case .primaryReleaseDate: return order(a.releaseDate ?? "", b.releaseDate ?? "")
        case .revenue: return order(a.revenue ?? 0, b.revenue ?? 0)
        case .title: return order(titleSortKey(a.title), titleSortKey(b.title))
        case .originalTitle:
            return order(titleSortKey(a.originalTitle ?? a.title), titleSortKey(b.originalTitle ?? b.title))
        }
    }

    /// What titles sort by: case and diacritics folded, then compared as Unicode text (a total order;
    /// Foundation's case- and diacritic-insensitive `compare` is not one for Hangul, which broke sorting).
    /// Lowercased, combining marks dropped, and the precomposed letters of the Latin, Greek and Cyrillic blocks
    /// replaced by what Foundation's `folding(options: [.caseInsensitive, .diacriticInsensitive])` makes of
    /// them (the modules link FoundationEssentials only, which has no `folding`).
    static func titleSortKey(_ title: String) -> String {
        var key = String.UnicodeScalarView()
        for scalar in title.lowercased().unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if let folded = foldedLetters[scalar] {
                key.append(contentsOf: folded.unicodeScalars)
            } else {
                key.append(scalar)
            }
        }
        return String(key)
    }

    /// Each lowercase letter with a diacritic (or a case-folding) and what it folds to, from Foundation's
    /// `folding` over U+00C0–U+024F, U+0370–U+04FF and U+1E00–U+1EFF: "àa" is à → a.
    private static let foldedLetters: [Unicode.Scalar: String] = {
        let pairs = """
            ßss àa áa âa ãa äa åa çc èe ée êe ëe ìi íi îi ïi ñn òo óo ôo õo öo ùu úu ûu üu ýy ÿy āa ăa ąa ćc
            ĉc ċc čc ďd ēe ĕe ėe ęe ěe ĝg ğg ġg ģg ĥh ĩi īi ĭi įi ĵj ķk ĺl ļl ľl ńn ņn ňn ŉʼn ōo ŏo őo ŕr ŗr
            řr śs ŝs şs šs ţt ťt ũu ūu ŭu ůu űu ųu ŵw ŷy źz żz žz ſs ơo ưu ǎa ǐi ǒo ǔu ǖu ǘu ǚu ǜu ǟa ǡa ǣæ
            ǧg ǩk ǫo ǭo ǯʒ ǰj ǵg ǹn ǻa ǽæ ǿø ȁa ȃa ȅe ȇe ȉi ȋi ȍo ȏo ȑr ȓr ȕu ȗu șs țt ȟh ȧa ȩe ȫo ȭo ȯo ȱo
            ȳy ΅¨ ΐι άα έε ήη ίι ΰυ ςσ ϊι ϋυ όο ύυ ώω ϐβ ϑθ ϓϒ ϔϒ ϕφ ϖπ ϰκ ϱρ ϵε йи ѐе ёе ѓг їі ќк ѝи ўу ѷѵ
            ӂж ӑа ӓа ӗе ӛә ӝж ӟз ӣи ӥи ӧо ӫө ӭэ ӯу ӱу ӳу ӵч ӹы ḁa ḃb ḅb ḇb ḉc ḋd ḍd ḏd ḑd ḓd ḕe ḗe ḙe ḛe ḝe
            ḟf ḡg ḣh ḥh ḧh ḩh ḫh ḭi ḯi ḱk ḳk ḵk ḷl ḹl ḻl ḽl ḿm ṁm ṃm ṅn ṇn ṉn ṋn ṍo ṏo ṑo ṓo ṕp ṗp ṙr ṛr ṝr
            ṟr ṡs ṣs ṥs ṧs ṩs ṫt ṭt ṯt ṱt ṳu ṵu ṷu ṹu ṻu ṽv ṿv ẁw ẃw ẅw ẇw ẉw ẋx ẍx ẏy ẑz ẓz ẕz ẖh ẗt ẘw ẙy
            ẚaʾ ẛs ạa ảa ấa ầa ẩa ẫa ậa ắa ằa ẳa ẵa ặa ẹe ẻe ẽe ếe ềe ểe ễe ệe ỉi ịi ọo ỏo ốo ồo ổo ỗo ộo ớo
            ờo ởo ỡo ợo ụu ủu ứu ừu ửu ữu ựu ỳy ỵy ỷy ỹy
            """
        var table: [Unicode.Scalar: String] = [:]
        for pair in pairs.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let letter = pair.unicodeScalars.first else { continue }
            table[letter] = String(String.UnicodeScalarView(pair.unicodeScalars.dropFirst()))
        }
        return table
    }()
}

/// The demo movies in `LocalMovieIndex`'s schema, in a private in-memory SQLite database.
private enum DemoSearchIndex {
    static let queue = DispatchQueue(label: "movie-rpc.demo-search")

    static let shared: Mutex<SQLiteConnection> = {
        do {
            let connection = try SQLiteConnection(path: ":memory:")
            try LocalMovieIndex.createSchema(connection)
            try connection.transaction(.immediate) {
                try LocalMovieIndex.index(
                    DemoCatalog.embedded.data.movies.map(\.summary), storedAt: Date(timeIntervalSince1970: 0),
                    in: connection)
            }
            return Mutex(connection)
        } catch {
            // A private in-memory database with fixed SQL and data: failing is a build defect (a unit test
            // searches the demo catalog), not an input error.
            preconditionFailure("The demo catalog's search index could not be built: \(error)")
        }
    }()
}
