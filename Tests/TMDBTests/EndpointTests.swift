import Foundation
import Testing
@testable import TMDB

@Suite("Endpoints")
struct EndpointTests {
    private func pairs(_ items: [URLQueryItem]) -> [String] {
        items.map { "\($0.name)=\($0.value ?? "<nil>")" }
    }

    @Test func movieGenres() {
        let endpoint = Endpoint.movieGenres(language: "de")
        #expect(endpoint.path == "/genre/movie/list")
        #expect(pairs(endpoint.queryItems) == ["language=de"])
        #expect(Endpoint.movieGenres().queryItems.isEmpty)
    }

    @Test func popularMovies() {
        let endpoint = Endpoint.popularMovies(page: 3, language: "en-US", region: "GB")
        #expect(endpoint.path == "/movie/popular")
        #expect(pairs(endpoint.queryItems) == ["page=3", "language=en-US", "region=GB"])
        #expect(pairs(Endpoint.popularMovies(page: 1).queryItems) == ["page=1"])
    }

    @Test func discoverMovies() {
        let endpoint = Endpoint.discoverMovies(genreID: 28, page: 2, language: "fr-FR", region: nil)
        #expect(endpoint.path == "/discover/movie")
        #expect(pairs(endpoint.queryItems)
            == ["with_genres=28", "sort_by=popularity.desc", "page=2", "language=fr-FR"])
    }

    @Test func movieDetails() {
        let endpoint = Endpoint.movieDetails(id: 550, language: "es")
        #expect(endpoint.path == "/movie/550")
        #expect(pairs(endpoint.queryItems) == ["language=es"])
        #expect(Endpoint.movieDetails(id: 11).queryItems.isEmpty)
    }

    @Test func latestMovie() {
        #expect(Endpoint.latestMovie().path == "/movie/latest")
        #expect(Endpoint.latestMovie().queryItems.isEmpty)
        #expect(pairs(Endpoint.latestMovie(language: "it").queryItems) == ["language=it"])
    }

    @Test func cacheKeySortsQueryItemsAndEncodesValues() {
        let endpoint = Endpoint.discoverMovies(genreID: 12, page: 4, language: "en-US", region: "US")
        #expect(endpoint.cacheKey
            == "/discover/movie?language=en-US&page=4&region=US&sort_by=popularity.desc&with_genres=12")
        #expect(Endpoint.latestMovie().cacheKey == "/movie/latest")
        let odd = Endpoint<TMDBGenreList>(path: "/x", queryItems: [URLQueryItem(name: "q", value: "a&b=c+d")])
        #expect(odd.cacheKey == "/x?q=a%26b%3Dc%2Bd")
    }

    @Test func differentQueriesGiveDifferentCacheKeys() {
        #expect(Endpoint.popularMovies(page: 1).cacheKey != Endpoint.popularMovies(page: 2).cacheKey)
        #expect(Endpoint.movieGenres(language: "en").cacheKey != Endpoint.movieGenres(language: "de").cacheKey)
    }

    @Test func cacheKeyNeverContainsTheCredential() async throws {
        let (client, script) = makeClient(.json(200, Fixtures.genreList))
        let endpoint = Endpoint.movieGenres(language: "en")
        _ = try await client.send(endpoint)
        let sent = try #require(await script.requests.first)
        #expect(sent.url.absoluteString.contains(TestSecrets.apiKey))
        #expect(!endpoint.cacheKey.contains(TestSecrets.apiKey))
        #expect(!endpoint.cacheKey.contains("api_key"))
    }
}
