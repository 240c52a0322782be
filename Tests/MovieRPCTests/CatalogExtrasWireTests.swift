import Foundation
import JSONRPC
import MovieCore
import Testing

@testable import MovieRPC

/// The wire form of the parts `movies.details` can include and of the methods that answer them, held to
/// golden bytes (the one encoding), and to the same JSON through `Encodable`.
@Suite struct CatalogExtrasWireTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_767_225_600)

    static let credits = MovieCredits(
        cast: [
            CastCredit(personID: 8, name: "B \"b\"", character: "Two", order: 1, profilePath: nil),
            CastCredit(personID: 7, name: "A", character: "One", order: 0, profilePath: "/a.jpg"),
        ],
        crew: [CrewCredit(personID: 9, name: "C", job: "Director", department: "Directing", profilePath: nil)])
    static let videos = [
        Video(name: "T", site: "YouTube", key: "k1", type: "Trailer", official: true, publishedAt: "2020"),
    ]
    static let options = WatchOptions(
        link: "https://l", flatrate: [WatchProvider(providerID: 8, name: "Netflix", logoPath: "/n.jpg")], rent: [],
        buy: [WatchProvider(providerID: 2, name: "Apple TV", logoPath: nil)], free: [], ads: [])

    static func sourced<Value>(_ value: Value) -> Sourced<Value> {
        Sourced(value: value, source: .network, fetchedAt: fetchedAt, stale: false)
    }

    func expectGolden<Value: JSONWritable>(_ value: Value, _ golden: String) throws {
        let written = try ResultEncoding.encode(value)
        #expect(String(decoding: written, as: UTF8.self) == golden)
        let encoded = try ResultEncoding.encodeWithEncoder(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoded)
            == JSONDecoder().decode(JSONValue.self, from: written))
    }

    @Test func creditsVideosAndProviders() throws {
        try expectGolden(
            MoviesCredits.Result(movieID: 5, sourced: Self.sourced(Self.credits)),
            #"{"movieId":5,"cast":[{"personId":7,"name":"A","character":"One","order":0,"#
                + #""profilePath":"/a.jpg","profileUrl":"https://image.tmdb.org/t/p/w185/a.jpg"},"#
                + #"{"personId":8,"name":"B \"b\"","character":"Two","order":1,"profilePath":null,"#
                + #""profileUrl":null}],"crew":[{"personId":9,"name":"C","job":"Director","#
                + #""department":"Directing","profilePath":null,"profileUrl":null}],"source":"network","#
                + #""fetchedAt":"2026-01-01T00:00:00.000Z","stale":false}"#)
        try expectGolden(
            MoviesVideos.Result(
                movieID: 5,
                sourced: Sourced(value: Self.videos, source: .cache, fetchedAt: Self.fetchedAt, stale: true)),
            #"{"movieId":5,"videos":[{"name":"T","site":"YouTube","key":"k1","type":"Trailer","#
                + #""official":true,"publishedAt":"2020","url":"https://www.youtube.com/watch?v=k1"}],"#
                + #""source":"cache","fetchedAt":"2026-01-01T00:00:00.000Z","stale":true}"#)
        try expectGolden(
            MoviesWatchProviders.Result(movieID: 5, region: "US", sourced: Self.sourced(["US": Self.options])),
            #"{"movieId":5,"region":"US","link":"https://l","flatrate":[{"providerId":8,"#
                + #""name":"Netflix","logoUrl":"https://image.tmdb.org/t/p/w92/n.jpg"}],"rent":[],"#
                + #""buy":[{"providerId":2,"name":"Apple TV","logoUrl":null}],"free":[],"ads":[],"#
                + #""source":"network","fetchedAt":"2026-01-01T00:00:00.000Z","stale":false}"#)
        try expectGolden(
            MoviesWatchProviders.Result(movieID: 5, region: "JP", sourced: Self.sourced(["US": Self.options])),
            #"{"movieId":5,"region":"JP","link":"","flatrate":[],"rent":[],"buy":[],"#
                + #""free":[],"ads":[],"source":"network","fetchedAt":"2026-01-01T00:00:00.000Z","#
                + #""stale":false}"#)
    }

    @Test func detailsWithEveryPartAfterTheDetailsMembers() throws {
        var details = MovieDetails(
            summary: CatalogWireTests.tricky, tagline: "", runtime: 1, status: "Released", genres: [], homepage: "",
            imdbId: "tt1", budget: 0, revenue: 0, spokenLanguages: [], productionCompanies: [])
        details.credits = MovieCredits(cast: [], crew: [])
        details.videos = []
        details.watchProviders = ["US": .none, "DE": Self.options]
        details.releaseDates = ["US": [Release(certification: "R", type: 3, date: "d")]]
        details.externalIds = ExternalIDs(imdbId: "tt1", wikidataId: "Q1")
        let sourced = Sourced(value: details, source: .network, fetchedAt: Self.fetchedAt, stale: false)
        let plain = try ResultEncoding.encode(MoviesDetails.Result(sourced: sourced, sizes: .default))
        let full = MoviesDetails.Result(
            sourced: sourced, sizes: .default, include: Set(DetailsPart.allCases), region: "US")
        let written = String(decoding: try ResultEncoding.encode(full), as: UTF8.self)
        let base = String(decoding: plain, as: UTF8.self)
        // The plain answer's members, then the parts, then provenance.
        let provenance = #","source":"network","fetchedAt":"2026-01-01T00:00:00.000Z","stale":false}"#
        #expect(written == base.dropLast(provenance.count)
            + #","credits":{"cast":[],"crew":[]},"videos":[],"watchProviders":{"US":{"link":"","#
            + #""flatrate":[],"rent":[],"buy":[],"free":[],"ads":[]}},"certification":"R","#
            + #""externalIds":{"imdbId":"tt1","wikidataId":"Q1","facebookId":null,"instagramId":null,"#
            + #""twitterId":null}"# + provenance)
        let everywhere = MoviesDetails.Result(
            sourced: sourced, sizes: .default, include: [.watchProviders, .releaseDates])
        let text = String(decoding: try ResultEncoding.encode(everywhere), as: UTF8.self)
        #expect(text.contains(#""watchProviders":{"DE":{"link":"https://l""#))
        #expect(text.contains(#""certification":null"#))
        try expectGolden(everywhere, text)
    }
}
