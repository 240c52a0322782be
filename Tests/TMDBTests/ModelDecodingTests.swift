import Foundation
import Testing
import TMDB

@Suite("Model decoding")
struct ModelDecodingTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Fixtures.data(json))
    }

    @Test func genreList() throws {
        let list = try decode(TMDBGenreList.self, Fixtures.genreList)
        #expect(list.genres == [
            TMDBGenre(id: 28, name: "Action"), TMDBGenre(id: 16, name: "Animation"),
            TMDBGenre(id: 10770, name: "TV Movie"),
        ])
    }

    @Test func popularPage() throws {
        let page = try decode(TMDBPage<TMDBMovieListItem>.self, Fixtures.popularPage)
        #expect(page.page == 2)
        #expect(page.totalPages == 41877)
        #expect(page.totalResults == 837521)
        #expect(page.reachablePages == 500)
        #expect(page.results.count == 2)

        let first = try #require(page.results.first)
        #expect(first == TMDBMovieListItem(
            id: 424242, title: "Star Blade", originalTitle: "星の剣", originalLanguage: "ja",
            overview: "A swordsmith forges a blade from a fallen star.", releaseDate: "2024-03-08",
            genreIds: [28, 878], voteAverage: 7.3, voteCount: 812, popularity: 1234.567,
            adult: false, video: false, posterPath: "/pSt9Qw1xLmN.jpg", backdropPath: "/bk4Rp9qfXyTmU2.jpg"
        ))

        let second = try #require(page.results.last)
        #expect(second.posterPath == nil)
        #expect(second.backdropPath == nil)
        #expect(second.releaseDate == "")
        #expect(second.genreIds.isEmpty)
        #expect(second.video)
    }

    @Test func movieDetails() throws {
        let movie = try decode(TMDBMovieDetails.self, Fixtures.movieDetails)
        #expect(movie.id == 31337)
        #expect(movie.title == "The Lighthouse Keepers")
        #expect(movie.originalTitle == "An Teach Solais")
        #expect(movie.genres.map(\.id) == [18, 9648])
        #expect(movie.runtime == 109)
        #expect(movie.imdbId == "tt7654321")
        #expect(movie.budget == 18_500_000)
        #expect(movie.revenue == 64_000_000)
        #expect(movie.tagline == "Keep the light.")
        #expect(movie.homepage == "https://example.org/lighthouse")
        #expect(movie.originCountry == ["IE", "GB"])
        #expect(movie.belongsToCollection
            == TMDBCollection(id: 7001, name: "Lighthouse Collection", posterPath: "/cOlPo5.jpg", backdropPath: nil))
        #expect(movie.productionCompanies == [
            TMDBProductionCompany(id: 501, name: "Wexford Pictures", logoPath: "/lOgO1.png", originCountry: "IE"),
            TMDBProductionCompany(id: 502, name: "Small Rock Films", logoPath: nil, originCountry: ""),
        ])
        #expect(movie.productionCountries.map(\.iso31661) == ["IE", "GB"])
        // `english_name` missing in the second entry (older captures) decodes as "".
        #expect(movie.spokenLanguages == [
            TMDBSpokenLanguage(englishName: "Irish", iso6391: "ga", name: "Gaeilge"),
            TMDBSpokenLanguage(englishName: "", iso6391: "en", name: "English"),
        ])
    }

    @Test func nearEmptyLatestMovie() throws {
        let movie = try decode(TMDBMovieDetails.self, Fixtures.latestMovie)
        #expect(movie.id == 1300001)
        #expect(movie.title == "Curta")
        #expect(movie.posterPath == nil)
        #expect(movie.backdropPath == nil)
        #expect(movie.belongsToCollection == nil)
        #expect(movie.imdbId == nil)
        #expect(movie.releaseDate == "")
        #expect(movie.runtime == 0)
        #expect(movie.genres.isEmpty)
        #expect(movie.spokenLanguages.isEmpty)
        #expect(movie.originCountry.isEmpty)
        #expect(movie.popularity == 0)
    }

    @Test func sparseRecordWithMissingKeysAndNulls() throws {
        let movie = try decode(TMDBMovieDetails.self, Fixtures.latestMovieSparse)
        #expect(movie == TMDBMovieDetails(id: 1300002))
        #expect(movie.runtime == nil)

        let item = try decode(TMDBMovieListItem.self, #"{"id": 5, "genre_ids": null, "adult": null}"#)
        #expect(item == TMDBMovieListItem(id: 5))

        let page = try decode(TMDBPage<TMDBMovieListItem>.self, "{}")
        #expect(page.results.isEmpty)
        #expect(page.totalPages == 0)
    }

    @Test func statusBodyIsParsedByKeyWhateverTheOrder() throws {
        let notFound = try decode(TMDBStatusBody.self, Fixtures.error404)
        #expect(notFound == TMDBStatusBody(
            statusCode: 34, statusMessage: "The resource you requested could not be found.", success: false
        ))
        let serverError = try decode(TMDBStatusBody.self, Fixtures.error500)
        #expect(serverError.statusCode == 11)
        #expect(serverError.success == false)
        let bare = try decode(TMDBStatusBody.self, #"{"status_code": 1}"#)
        #expect(bare.statusMessage == "")
        #expect(bare.success == nil)
    }

    @Test func wrongTypesAreRejected() {
        #expect(throws: DecodingError.self) {
            try decode(TMDBPage<TMDBMovieListItem>.self, #"{"page": 1, "results": "none"}"#)
        }
        #expect(throws: DecodingError.self) {
            try decode(TMDBMovieDetails.self, #"{"id": "550"}"#)
        }
        #expect(throws: DecodingError.self) {
            try decode(TMDBGenreList.self, "[]")
        }
    }

    @Test func encodingRoundTripsInTMDBShape() throws {
        let page = try decode(TMDBPage<TMDBMovieListItem>.self, Fixtures.popularPage)
        let pageAgain = try JSONDecoder().decode(TMDBPage<TMDBMovieListItem>.self, from: JSONEncoder().encode(page))
        #expect(pageAgain == page)
    }
}
