import Foundation
import TMDB
import Testing

@testable import MovieCore

@Suite struct DemoCatalogQueriesTests {
    let demo = DemoCatalog.embedded
    var movies: [DemoMovie] { demo.data.movies }

    /// Every page of the movies `configure`'s filter discovers.
    func discovered(_ configure: (inout DiscoverFilter) -> Void) -> [MovieSummary] {
        var filter = DiscoverFilter()
        configure(&filter)
        return all { demo.discover(filter, page: $0) }
    }

    /// Every page of a demo list, concatenated.
    func all(_ page: (Int) -> MoviePage) -> [MovieSummary] {
        let first = page(1)
        return (1...first.totalPages).flatMap { page($0).results }
    }

    // MARK: Search

    @Test func searchFoldsPrefixesAndRanksAsTheLocalIndexDoes() async {
        #expect(await demo.search(LocalSearchQuery(query: "leon")).results.first?.id == 101)
        #expect(await demo.search(LocalSearchQuery(query: "LÉON")).results.first?.id == 101)
        // Titles starting with the word (by popularity) before the more popular titles that only hold it.
        #expect(await demo.search(LocalSearchQuery(query: "jura")).results.map(\.id) == [507086, 135397, 503210, 150354])
        #expect(await demo.search(LocalSearchQuery(query: "the godfather part")).results.first?.id == 240)
    }

    @Test func searchFilters() async {
        let godfathers = await demo.search(LocalSearchQuery(query: "godfather")).results.map(\.id)
        #expect(Set(godfathers) == [238, 240])
        #expect(await demo.search(LocalSearchQuery(query: "godfather", year: 1974)).results.map(\.id) == [240])
        #expect(await demo.search(LocalSearchQuery(query: "godfather", primaryReleaseYear: 1972)).results.map(\.id) == [238])
        #expect(await demo.search(LocalSearchQuery(query: "your name", language: "ja")).results.map(\.id) == [372058])
        #expect(await demo.search(LocalSearchQuery(query: "your name", language: "de")).results.isEmpty)
    }

    @Test(arguments: ["\"", "*", "^", "(", "🎬", "\u{0}", String(repeating: "x", count: 10_240)])
    func searchWithoutAWordFindsNothing(_ text: String) async {
        let page = await demo.search(LocalSearchQuery(query: text))
        #expect(page.results.isEmpty && page.totalResults == 0)
    }

    @Test(arguments: ["AND", "NEAR(", "{title}:", "OR NOT", "jurassic\"*"])
    func operatorsAreSearchedAsWords(_ text: String) async {
        let page = await demo.search(LocalSearchQuery(query: text))
        #expect(page.results.count == min(20, page.totalResults))
    }

    @Test func searchPages() async {
        let first = await demo.search(LocalSearchQuery(query: "the"))
        #expect(first.results.count == 20 && first.totalResults > 20)
        var rest: [MovieSummary] = []
        for page in 2...first.totalPages { rest += await demo.search(LocalSearchQuery(query: "the", page: page)).results }
        #expect(first.results.count + rest.count == first.totalResults)
        #expect(Set((first.results + rest).map(\.id)).count == first.totalResults)
    }

    // MARK: Discover

    @Test func discoverCombinesGenresAsAllOrAny() {
        let animationFamily = discovered { $0.genreIDs = [16, 10751] }
        #expect(!animationFamily.isEmpty)
        #expect(animationFamily.allSatisfy { $0.genreIds.contains(16) && $0.genreIds.contains(10751) })
        let either = discovered { $0.genreIDs = [16, 10751]; $0.genreMatch = .any }
        #expect(either.count == movies.filter { ($0.genreIds ?? []).contains { [16, 10751].contains($0) } }.count)
        #expect(either.count > animationFamily.count)
        let noHorror = discovered { $0.withoutGenreIDs = [27] }
        #expect(noHorror.count == movies.filter { !($0.genreIds ?? []).contains(27) }.count)
        #expect(noHorror.allSatisfy { !$0.genreIds.contains(27) })
    }

    @Test func discoverFiltersDatesRatingsVotesRuntimeAndLanguage() {
        let of1994 = discovered { $0.year = 1994 }
        #expect(Set(of1994.map(\.id)).isSuperset(of: [278, 680, 13, 101]))
        #expect(of1994.allSatisfy { $0.releaseDate.hasPrefix("1994-") })
        let nineties = discovered { $0.releasedFrom = "1990-01-01"; $0.releasedTo = "1999-12-31" }
        #expect(nineties.allSatisfy { $0.releaseDate >= "1990-01-01" && $0.releaseDate <= "1999-12-31" })
        #expect(nineties.count == movies.filter { ($0.releaseDate ?? "").hasPrefix("199") }.count)
        let acclaimed = discovered { $0.minRating = 8.5; $0.minVotes = 10_000 }
        #expect(!acclaimed.isEmpty && acclaimed.allSatisfy { $0.voteAverage >= 8.5 && $0.voteCount >= 10_000 })
        let short = discovered { $0.minRuntime = 60; $0.maxRuntime = 90 }
        let runtimes = Dictionary(uniqueKeysWithValues: movies.map { ($0.id, $0.runtime) })
        #expect(!short.isEmpty)
        #expect(short.allSatisfy { (runtimes[$0.id] ?? nil).map { (60...90).contains($0) } == true })
        #expect(short.count == movies.filter { $0.runtime.map { (60...90).contains($0) } == true }.count)
        let japanese = discovered { $0.originalLanguage = "ja" }
        #expect(!japanese.isEmpty && japanese.allSatisfy { $0.originalLanguage == "ja" })
    }

    @Test(arguments: DiscoverMovieQuery.sortOrders)
    func discoverSortsByEveryTMDBOrder(_ sortBy: String) throws {
        let order = try #require(DiscoverSortOrder(rawValue: sortBy))
        let sorted = discovered { $0.sortBy = sortBy }
        #expect(sorted.count == movies.count)
        let revenue = Dictionary(uniqueKeysWithValues: movies.map { ($0.id, $0.revenue ?? 0) })
        let dated = order.field == .primaryReleaseDate ? sorted.filter { !$0.releaseDate.isEmpty } : sorted
        for (a, b) in zip(dated, dated.dropFirst()) {
            let inOrder: Bool
            switch order.field {
            case .popularity: inOrder = order.ascending ? a.popularity <= b.popularity : a.popularity >= b.popularity
            case .voteAverage:
                inOrder = order.ascending ? a.voteAverage <= b.voteAverage : a.voteAverage >= b.voteAverage
            case .voteCount: inOrder = order.ascending ? a.voteCount <= b.voteCount : a.voteCount >= b.voteCount
            case .primaryReleaseDate:
                inOrder = order.ascending ? a.releaseDate <= b.releaseDate : a.releaseDate >= b.releaseDate
            case .revenue:
                inOrder = order.ascending
                    ? revenue[a.id, default: 0] <= revenue[b.id, default: 0]
                    : revenue[a.id, default: 0] >= revenue[b.id, default: 0]
            case .title, .originalTitle:
                let (x, y) = order.field == .title ? (a.title, b.title) : (a.originalTitle, b.originalTitle)
                let (keyX, keyY) = (DemoCatalog.titleSortKey(x), DemoCatalog.titleSortKey(y))
                inOrder = order.ascending ? keyX <= keyY : keyX >= keyY
            }
            #expect(inOrder, "\(order.rawValue): \(a.title) before \(b.title)")
        }
        if order.field == .primaryReleaseDate {
            #expect(sorted.drop { !$0.releaseDate.isEmpty }.allSatisfy { $0.releaseDate.isEmpty })
        }
    }

    @Test func sortOrdersAreTMDBsValues() {
        #expect(DiscoverSortOrder(rawValue: "primary_release_date.desc")
            == DiscoverSortOrder(field: .primaryReleaseDate, ascending: false))
        #expect(DiscoverSortOrder(rawValue: "vote_average.asc")?.rawValue == "vote_average.asc")
        for bad in ["popularity", "popularity.", ".desc", "popularity.down", "release_date.desc", "Popularity.desc"] {
            #expect(DiscoverSortOrder(rawValue: bad) == nil, "\(bad)")
        }
    }

    // MARK: Lists

    @Test func trendingIsByPopularityForBothWindows() {
        let day = all { demo.trending(window: .day, page: $0) }
        #expect(day.count == movies.count)
        #expect(zip(day, day.dropFirst()).allSatisfy { $0.popularity >= $1.popularity })
        #expect(all { demo.trending(window: .week, page: $0) } == day)
        #expect(demo.trending(window: .day, page: 99).results.isEmpty)
    }

    @Test func topRatedIsByVoteAverageAmongWellVotedMovies() {
        let top = all { demo.topRated(page: $0) }
        #expect(top.first?.id == 278)  // The Shawshank Redemption; a 9.0 with 16 votes is left out
        #expect(top.allSatisfy { $0.voteCount >= DemoCatalog.topRatedMinVotes })
        #expect(zip(top, top.dropFirst()).allSatisfy { $0.voteAverage >= $1.voteAverage })
        #expect(top.count == movies.filter { ($0.voteCount ?? 0) >= DemoCatalog.topRatedMinVotes }.count)
    }

    @Test func recommendationsShareGenresMostSharedThenMostPopular() throws {
        let godfather = try #require(movies.first { $0.id == 238 })
        let genres = Set(godfather.genreIds ?? [])
        let liked = all { demo.recommendations(movieID: 238, page: $0) ?? MoviePage(
            page: $0, totalPages: 1, totalResults: 0, results: []) }
        #expect(!liked.isEmpty && !liked.contains { $0.id == 238 })
        let shared = liked.map { Set($0.genreIds).intersection(genres).count }
        #expect(shared.allSatisfy { $0 > 0 })
        #expect(zip(shared, shared.dropFirst()).allSatisfy { $0 >= $1 })
        for (a, b) in zip(liked, liked.dropFirst())
        where Set(a.genreIds).intersection(genres).count == Set(b.genreIds).intersection(genres).count {
            #expect(a.popularity >= b.popularity)
        }
        #expect(demo.recommendations(movieID: 1, page: 1) == nil)
    }

    @Test func findByIMDbID() {
        #expect(demo.find(imdbID: "tt0110413")?.id == 101)
        #expect(demo.find(imdbID: "TT0110413")?.id == 101)
        #expect(demo.find(imdbID: "tt10298810")?.title == "Lightyear")
        #expect(demo.find(imdbID: "tt0000001") == nil)
    }

    @Test func demoIMDbIDsAreWellFormedAndUnique() {
        let ids = movies.compactMap(\.imdbId)
        #expect(ids.count >= 180)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.wholeMatch(of: /tt[0-9]{7,8}/) != nil })
    }
}
