import Foundation
import JSONRPC
import MovieCore
import Testing

@testable import MovieRPC

/// Results that write their own JSON must give exactly the JSON their `Encodable` form gives.
@Suite struct CatalogWireTests {
    static let tricky = MovieSummary(
        id: 550, title: "Fight \"Club\" \\ / naïve — 東京\n\t\u{01}", originalTitle: "", overview: "a\rb\u{0C}c\u{08}",
        releaseDate: "", genreIds: [18, 53], voteAverage: 8.0, voteCount: 0, popularity: 61.4269, adult: false,
        originalLanguage: "en", posterPath: "/pB8.jpg", backdropPath: nil)

    static let page = MoviePage(page: 2, totalPages: 9000, totalResults: 180_000, results: [
        tricky,
        MovieSummary(
            id: 1, title: "", originalTitle: "x", overview: "", releaseDate: "2020-01-01", genreIds: [],
            voteAverage: 1e-7, voteCount: 3, popularity: 123_456_789.5, adult: true, originalLanguage: "",
            posterPath: nil, backdropPath: "/b.jpg"),
    ])

    static let fetchedAt = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00.000Z

    /// The bytes of the one encoding, compared as they are; `encode(to:)` must give the same JSON.
    func expectGolden<Value: JSONWritable>(_ value: Value, _ golden: String) throws {
        let written = try ResultEncoding.encode(value)
        #expect(String(decoding: written, as: UTF8.self) == golden)
        let encoded = try ResultEncoding.encodeWithEncoder(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoded) == JSONDecoder().decode(JSONValue.self, from: written))
    }

    @Test func pageResult() throws {
        let sourced = Sourced(value: Self.page, source: .cache, fetchedAt: Date(timeIntervalSince1970: 1), stale: true)
        try expectGolden(MoviePageResult(sourced, sizes: .default), Self.goldenPage)
    }

    @Test func serverInfoResult() throws {
        let info = ServerInfo.Result(
            name: "movie-rpc", version: "0.1.0", protocolVersion: "2.0", framing: "newline", catalog: "demo",
            dataDirectory: "/home/\"quoted\"/\u{1}/é/movie-rpc")
        let written = try ResultEncoding.encode(info)
        let encoded = try ResultEncoding.encodeWithEncoder(info)
        #expect(try JSONDecoder().decode(JSONValue.self, from: written) == JSONDecoder().decode(JSONValue.self, from: encoded))
    }

    @Test func genresResult() throws {
        let sourced = Sourced(
            value: [Genre(id: 28, name: "Action"), Genre(id: 10770, name: "TV \"Movie\"")], source: .demo,
            fetchedAt: Self.fetchedAt, stale: false)
        try expectGolden(GenresList.Result(sourced: sourced), Self.goldenGenres)
    }

    @Test func detailsResult() throws {
        let details = MovieDetails(
            summary: Self.tricky, tagline: "", runtime: nil, status: "Released", genres: [Genre(id: 18, name: "Drama")],
            homepage: "https://example.com/a/b", imdbId: nil, budget: 63_000_000, revenue: 0,
            spokenLanguages: ["English", "Français"], productionCompanies: [])
        let sourced = Sourced(value: details, source: .network, fetchedAt: Self.fetchedAt, stale: false)
        try expectGolden(MoviesDetails.Result(sourced: sourced, sizes: .default), Self.goldenDetails)
    }

    /// `movies.latest` was encoded by `JSONEncoder` with sorted keys; now it is written in the summary's
    /// member order. The same JSON value, members in another order.
    @Test func latestResult() throws {
        let summary = MovieSummary(
            id: 1, title: "T\"", originalTitle: "o", overview: "", releaseDate: "", genreIds: [1, 2], voteAverage: 0,
            voteCount: 0, popularity: 0.5, adult: false, originalLanguage: "en", posterPath: "/p.jpg", backdropPath: nil)
        let details = MovieDetails(
            summary: summary, tagline: "", runtime: nil, status: "Released", genres: [], homepage: "", imdbId: nil,
            budget: 0, revenue: 0, spokenLanguages: [], productionCompanies: [])
        let sourced = Sourced(value: details, source: .demo, fetchedAt: Self.fetchedAt, stale: false)
        try expectGolden(MoviesLatest.Result(sourced: sourced), Self.goldenLatest)
        let before =
            #"{"adult":false,"fetchedAt":"2026-01-01T00:00:00.000Z","genreIds":[1,2],"#
            + #""id":1,"originalLanguage":"en","originalTitle":"o","overview":"","popularity":0.5,"#
            + #""releaseDate":"","runtime":null,"source":"demo","stale":false,"status":"Released","#
            + #""title":"T\"","voteAverage":0,"voteCount":0}"#
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(before.utf8))
            == JSONDecoder().decode(JSONValue.self, from: Data(Self.goldenLatest.utf8)))
    }

    @Test func favoritesResults() throws {
        let favorite = FavoriteWire(Favorite(movieID: 550, addedAt: Date(timeIntervalSince1970: 2), movie: Self.tricky))
        try expectGolden(FavoritesList.Result.favorites([favorite]), Self.goldenFavorites)
        let list = FavoritesList.Result.favorites([favorite])
        let written = FavoritesList.Result.written(EncodedJSON(list))
        #expect(try ResultEncoding.encode(written) == ResultEncoding.encode(list))
        try expectGolden(FavoritesContains.Result(contains: ["550": true, "13": false, "1000": true]),
            #"{"contains":{"1000":true,"13":false,"550":true}}"#)
        try expectGolden(FavoritesContains.Result(contains: [:]), #"{"contains":{}}"#)
        // Built from ids, the answer is ordered by the ids' texts as the dictionary form is, duplicates once.
        let ids = [1000, 13, 550, 1, 10, 9, 99, 100, 101, 2, 13, Int.max, 999_999_999_999_999_999, 1_000_000_000]
            // Each side of every step of the order's key: 10^3, 10^11, 10^15, 10^17, 10^18.
            + [999, 1_000, 99_999_999_999, 100_000_000_000, 999_999_999_999_999, 1_000_000_000_000_000]
            + [99_999_999_999_999_999, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 130, 1300, 12, 1299]
        let found: Set<Int> = [13, 99, Int.max]
        let fromIDs = FavoritesContains.Result(movieIDs: ids, favorites: found)
        let fromDictionary = FavoritesContains.Result(
            contains: Dictionary(ids.map { (String($0), found.contains($0)) }, uniquingKeysWith: { first, _ in first }))
        #expect(try ResultEncoding.encode(fromIDs) == ResultEncoding.encode(fromDictionary))
        let sections = FavoritesList.Result.sections([
            .init(genre: Genre(id: 18, name: "Drama"), movies: []), .init(genre: Genre(id: 0, name: "Other"), movies: []),
        ])
        try expectGolden(sections,
            #"{"sections":[{"genre":{"id":18,"name":"Drama"},"movies":[]},{"genre":{"id":0,"#
                + #""name":"Other"},"movies":[]}]}"#)
    }

    // Golden bytes, as the separate Encodable and JSONWriter encodings both gave them before they were
    // made one.
    static let goldenPage =
        #"{"page":2,"totalPages":500,"totalResults":180000,"results":[{"id":550,"#
        + #""title":"Fight \"Club\" \\ / naïve — 東京\n\t\u0001","originalTitle":"","#
        + #""overview":"a\rb\fc\b","releaseDate":"","genreIds":[18,53],"voteAverage":8,"#
        + #""voteCount":0,"popularity":61.4269,"adult":false,"originalLanguage":"en","#
        + #""posterPath":"/pB8.jpg","posterUrl":"https://image.tmdb.org/t/p/w500/pB8.jpg","#
        + #""backdropPath":null,"backdropUrl":null},{"id":1,"title":"","originalTitle":"x","#
        + #""overview":"","releaseDate":"2020-01-01","genreIds":[],"voteAverage":1e-07,"#
        + #""voteCount":3,"popularity":123456789.5,"adult":true,"originalLanguage":"","#
        + #""posterPath":null,"posterUrl":null,"backdropPath":"/b.jpg","backdropUrl":"https://image.tmdb.org/t/p/w780/b.jpg"}],"#
        + #""source":"cache","fetchedAt":"1970-01-01T00:00:01.000Z","stale":true}"#
    static let goldenDetails =
        #"{"id":550,"title":"Fight \"Club\" \\ / naïve — 東京\n\t\u0001","originalTitle":"","#
        + #""overview":"a\rb\fc\b","releaseDate":"","genreIds":[18,53],"voteAverage":8,"#
        + #""voteCount":0,"popularity":61.4269,"adult":false,"originalLanguage":"en","#
        + #""posterPath":"/pB8.jpg","posterUrl":"https://image.tmdb.org/t/p/w500/pB8.jpg","#
        + #""backdropPath":null,"backdropUrl":null,"tagline":"","runtime":null,"status":"Released","#
        + #""genres":[{"id":18,"name":"Drama"}],"homepage":"https://example.com/a/b","#
        + #""imdbId":null,"budget":63000000,"revenue":0,"spokenLanguages":["English","#
        + #""Français"],"productionCompanies":[],"source":"network","fetchedAt":"2026-01-01T00:00:00.000Z","#
        + #""stale":false}"#
    static let goldenFavorites =
        #"{"favorites":[{"movieId":550,"addedAt":"1970-01-01T00:00:02.000Z","movie":{"id":550,"#
        + #""title":"Fight \"Club\" \\ / naïve — 東京\n\t\u0001","originalTitle":"","#
        + #""overview":"a\rb\fc\b","releaseDate":"","genreIds":[18,53],"voteAverage":8,"#
        + #""voteCount":0,"popularity":61.4269,"adult":false,"originalLanguage":"en","#
        + #""posterPath":"/pB8.jpg","posterUrl":"https://image.tmdb.org/t/p/w500/pB8.jpg","#
        + #""backdropPath":null,"backdropUrl":null}}]}"#
    static let goldenGenres =
        #"{"genres":[{"id":28,"name":"Action"},{"id":10770,"name":"TV \"Movie\""}],"#
        + #""source":"demo","fetchedAt":"2026-01-01T00:00:00.000Z","stale":false}"#
    static let goldenLatest =
        #"{"id":1,"title":"T\"","originalTitle":"o","overview":"","releaseDate":"","#
        + #""genreIds":[1,2],"voteAverage":0,"voteCount":0,"popularity":0.5,"adult":false,"#
        + #""originalLanguage":"en","runtime":null,"status":"Released","source":"demo","#
        + #""fetchedAt":"2026-01-01T00:00:00.000Z","stale":false}"#

    @Test func writerEscapesLikeJSON() throws {
        var writer = JSONWriter()
        writer.object { writer in
            writer.member("s", "\u{00}\u{1F}\"\\/é")
            writer.member("d", -0.5)
            writer.member("n", nil as String?)
            writer.key("nested")
            writer.array([1, 2]) { writer, value in writer.value(value) }
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"s":"\u0000\u001f\"\\/é","d":-0.5,"n":null,"nested":[1,2]}"#)
    }
}
