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

    func expectSameJSON<Value: JSONWritable>(_ value: Value) throws {
        let written = try ResultEncoding.encode(value)
        let encoded = try ResultEncoding.encodeWithEncoder(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: written) == JSONDecoder().decode(JSONValue.self, from: encoded))
        #expect(!written.contains(UInt8(ascii: "\n")))
    }

    @Test func pageResult() throws {
        let sourced = Sourced(value: Self.page, source: .cache, fetchedAt: Date(timeIntervalSince1970: 1), stale: true)
        try expectSameJSON(MoviePageResult(sourced, sizes: .default))
    }

    @Test func serverInfoResult() throws {
        try expectSameJSON(ServerInfo.Result(
            name: "movie-rpc", version: "0.1.0", protocolVersion: "2.0", framing: "newline", catalog: "demo",
            dataDirectory: "/home/\"quoted\"/\u{1}/é/movie-rpc"))
    }

    @Test func genresResult() throws {
        try expectSameJSON(GenresList.Result(
            genres: [Genre(id: 28, name: "Action"), Genre(id: 10770, name: "TV \"Movie\"")], source: "demo",
            fetchedAt: "2026-01-01T00:00:00.000Z", stale: false))
    }

    @Test func detailsResult() throws {
        try expectSameJSON(MoviesDetails.Result(
            movie: MovieSummaryWire(Self.tricky, sizes: .default), tagline: "", runtime: nil, status: "Released",
            genres: [Genre(id: 18, name: "Drama")], homepage: "https://example.com/a/b", imdbId: nil,
            budget: 63_000_000, revenue: 0, spokenLanguages: ["English", "Français"], productionCompanies: [],
            source: "network", fetchedAt: "2026-01-01T00:00:00.000Z", stale: false))
    }

    @Test func favoritesResults() throws {
        let favorite = FavoriteWire(Favorite(movieID: 550, addedAt: Date(timeIntervalSince1970: 2), movie: Self.tricky))
        try expectSameJSON(FavoritesList.Result.favorites([favorite, favorite]))
        try expectSameJSON(FavoritesList.Result.sections([
            .init(genre: Genre(id: 18, name: "Drama"), movies: [favorite]), .init(genre: Genre(id: 0, name: "Other"), movies: []),
        ]))
        try expectSameJSON(FavoritesContains.Result(contains: ["550": true, "13": false, "1000": true]))
        try expectSameJSON(FavoritesContains.Result(contains: [:]))
        let list = FavoritesList.Result.favorites([favorite])
        let written = FavoritesList.Result.written(EncodedJSON(list))
        try expectSameJSON(written)
        #expect(try ResultEncoding.encode(written) == ResultEncoding.encode(list))
    }

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
