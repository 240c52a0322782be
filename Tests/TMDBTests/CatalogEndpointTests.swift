import Foundation
import Testing
@testable import TMDB

@Suite("Catalog endpoints and models")
struct CatalogEndpointTests {
    private func pairs(_ items: [URLQueryItem]) -> [String] {
        items.map { "\($0.name)=\($0.value ?? "<nil>")" }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test func searchMovies() {
        let endpoint = Endpoint.searchMovies(
            query: "léon & co", page: 2, year: 1994, primaryReleaseYear: nil, language: "fr-FR", region: "FR",
            includeAdult: false)
        #expect(endpoint.path == "/search/movie")
        #expect(pairs(endpoint.queryItems)
            == ["query=léon & co", "include_adult=false", "page=2", "year=1994", "language=fr-FR", "region=FR"])
        #expect(endpoint.cacheKey.contains("query=l%C3%A9on%20%26%20co"))
    }

    @Test func listsAndTrending() {
        #expect(Endpoint.trendingMovies(window: "week", page: 3).path == "/trending/movie/week")
        #expect(pairs(Endpoint.trendingMovies(window: "day").queryItems) == ["page=1"])
        let nowPlaying = Endpoint.movieList("now_playing", page: 2, language: "de", region: "DE")
        #expect(nowPlaying.path == "/movie/now_playing")
        #expect(pairs(nowPlaying.queryItems) == ["page=2", "language=de", "region=DE"])
        #expect(Endpoint.relatedMovies("similar", movieID: 550, page: 4).path == "/movie/550/similar")
    }

    @Test func discoverSendsEveryFilterInTMDBTerms() {
        var query = DiscoverMovieQuery()
        query.genreIDs = [28, 12]
        query.allGenres = false
        query.withoutGenreIDs = [27]
        query.primaryReleaseYear = 1999
        query.releasedFrom = "1999-01-01"
        query.releasedTo = "1999-12-31"
        query.minRating = 7.5
        query.minVotes = 100
        query.minRuntime = 80
        query.maxRuntime = 200
        query.originalLanguage = "en"
        query.sortBy = "vote_average.desc"
        query.watchProviderIDs = [8, 9]
        query.watchRegion = "US"
        query.certification = "PG-13"
        query.certificationCountry = "US"
        let endpoint = Endpoint.discoverMovies(query, page: 2, language: "en-US", region: nil)
        #expect(endpoint.path == "/discover/movie")
        #expect(pairs(endpoint.queryItems) == [
            "with_genres=28|12", "without_genres=27", "primary_release_year=1999",
            "primary_release_date.gte=1999-01-01", "primary_release_date.lte=1999-12-31", "vote_average.gte=7.5",
            "vote_count.gte=100", "with_runtime.gte=80", "with_runtime.lte=200", "with_original_language=en",
            "sort_by=vote_average.desc", "with_watch_providers=8|9", "watch_region=US", "certification=PG-13",
            "certification_country=US", "page=2", "language=en-US",
        ])
        var all = DiscoverMovieQuery()
        all.genreIDs = [28, 12]
        #expect(pairs(Endpoint.discoverMovies(all).queryItems)
            == ["with_genres=28,12", "sort_by=popularity.desc", "page=1"])
    }

    @Test func subResourcesFindAndPeople() {
        #expect(Endpoint.movieCredits(id: 550).path == "/movie/550/credits")
        #expect(Endpoint.movieVideos(id: 550, language: "en").path == "/movie/550/videos")
        #expect(Endpoint.movieWatchProviders(id: 550).path == "/movie/550/watch/providers")
        let find = Endpoint.findByIMDbID("tt0137523")
        #expect(find.path == "/find/tt0137523" && pairs(find.queryItems) == ["external_source=imdb_id"])
        #expect(pairs(Endpoint.searchPeople(query: "Tom", page: 2).queryItems)
            == ["query=Tom", "include_adult=false", "page=2"])
        let person = Endpoint.personDetails(id: 31, language: nil)
        #expect(person.path == "/person/31" && pairs(person.queryItems) == ["append_to_response=movie_credits"])
    }

    @Test func detailsAppendTheirPartsInOneRequest() {
        let endpoint = Endpoint<TMDBMovieDetails>.movieDetails(
            id: 550, language: "en",
            appending: ["credits", "videos", "watch/providers", "release_dates", "external_ids"])
        #expect(pairs(endpoint.queryItems)
            == ["language=en", "append_to_response=credits,videos,watch/providers,release_dates,external_ids"])
        #expect(Endpoint<TMDBMovieDetails>.movieDetails(id: 550, appending: []).queryItems.isEmpty)
        let many = (0..<30).map { "part\($0)" }
        let capped = Endpoint<TMDBMovieDetails>.movieDetails(id: 1, appending: many)
        #expect(capped.queryItems.last?.value?.split(separator: ",").count == 20)
    }

    @Test func detailsWithAppendedPartsDecode() throws {
        let movie = try decode(TMDBMovieDetails.self, CatalogFixtures.detailsWithParts)
        #expect(movie.title == "Port of Shadows" && movie.runtime == 91)
        let credits = try #require(movie.credits)
        #expect(credits.cast.map(\.name) == ["Michèle Morgan", "Jean Gabin"] && credits.cast.map(\.order) == [1, 0])
        #expect(credits.cast[0].profilePath == nil && credits.crew.first?.job == "Director")
        #expect(movie.videos?.results.map(\.site) == ["YouTube", "Vimeo"])
        #expect(movie.videos?.results.last?.publishedAt == "2018-01-01T10:00:00.000Z")
        let france = try #require(movie.watchProviders?.results["FR"])
        #expect(france.flatrate.map(\.providerName) == ["MUBI"] && france.rent.isEmpty && france.ads.isEmpty)
        #expect(france.buy.map(\.displayPriority) == [4, 1])
        #expect(movie.releaseDates?.results.first?.releaseDates.map(\.type) == [1, 3])
        #expect(movie.externalIds?.wikidataId == "Q1" && movie.externalIds?.facebookId == nil)
        let plain = try decode(TMDBMovieDetails.self, #"{"id": 1}"#)
        #expect(plain.credits == nil && plain.videos == nil && plain.watchProviders == nil)
    }

    @Test func datedPagesFindAndPeopleDecode() throws {
        let page = try decode(TMDBPage<TMDBMovieListItem>.self, CatalogFixtures.nowPlaying)
        #expect(page.dates == TMDBDateRange(minimum: "2026-10-29", maximum: "2026-12-10"))
        #expect(page.results.first?.title == "Five")
        let found = try decode(TMDBFindResults.self, CatalogFixtures.find)
        #expect(found.movieResults.map(\.id) == [4242])
        let people = try decode(TMDBPage<TMDBPersonListItem>.self, CatalogFixtures.searchPerson)
        #expect(people.results.first?.knownForDepartment == "Acting" && people.results.first?.profilePath == "/jg.jpg")
        let person = try decode(TMDBPersonDetails.self, CatalogFixtures.personWithCredits)
        #expect(person.deathday == "1976-11-15" && person.placeOfBirth == "Paris, France")
        #expect(person.movieCredits?.cast.map(\.movie.id) == [4242, 4343, 4444])
        #expect(person.movieCredits?.cast.first?.character == "Jean")
    }
}
