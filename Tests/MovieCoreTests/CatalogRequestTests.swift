import Foundation
import Testing
import TMDB

@testable import MovieCore

@Suite struct CatalogRequestTests {
    /// Every parameter that changes an answer changes its cache key.
    @Test func cacheKeysCarryEveryParameter() {
        let search = MovieSearch(query: "léon", page: 1, year: nil, primaryReleaseYear: nil, language: nil)
        var variants: [CatalogRequest] = [.search(search)]
        for change in [
            { (s: inout MovieSearch) in s.query = "leon" }, { $0.page = 2 }, { $0.year = 1994 },
            { $0.primaryReleaseYear = 1994 }, { $0.language = "fr" }, { $0.region = "FR" }, { $0.includeAdult = true },
            { $0.query = "léon&page=2" },
        ] {
            var changed = search
            change(&changed)
            variants.append(.search(changed))
        }
        var filter = DiscoverFilter()
        variants.append(.discover(filter, page: 1, language: nil, region: nil))
        let filterChanges: [(inout DiscoverFilter) -> Void] = [
            { $0.genreIDs = [28] }, { $0.genreMatch = .any }, { $0.withoutGenreIDs = [27] }, { $0.year = 2000 },
            { $0.releasedFrom = "2000-01-01" }, { $0.releasedTo = "2000-01-01" }, { $0.minRating = 7 },
            { $0.minVotes = 10 }, { $0.minRuntime = 90 }, { $0.maxRuntime = 90 }, { $0.originalLanguage = "ja" },
            { $0.sortBy = "title.asc" }, { $0.watchProviderIDs = [8] }, { $0.watchRegion = "US" },
            { $0.certification = "R" }, { $0.certificationCountry = "US" }, { $0.certification = "R&cert=PG" },
        ]
        for change in filterChanges {
            var changed = DiscoverFilter()
            change(&changed)
            variants.append(.discover(changed, page: 1, language: nil, region: nil))
        }
        filter.genreIDs = [28]
        variants += [
            .discover(filter, page: 2, language: nil, region: nil),
            .discover(filter, page: 1, language: "de", region: nil),
            .discover(filter, page: 1, language: nil, region: "DE"),
            .trending(window: .day, page: 1, language: nil), .trending(window: .week, page: 1, language: nil),
            .trending(window: .day, page: 2, language: nil), .trending(window: .day, page: 1, language: "de"),
            .list(.topRated, page: 1, language: nil, region: nil),
            .list(.nowPlaying, page: 1, language: nil, region: nil),
            .list(.upcoming, page: 1, language: nil, region: "US"),
            .list(.upcoming, page: 1, language: nil, region: nil),
            .related(.similar, movieID: 1, page: 1, language: nil),
            .related(.recommendations, movieID: 1, page: 1, language: nil),
            .related(.similar, movieID: 2, page: 1, language: nil),
            .related(.similar, movieID: 1, page: 2, language: nil),
            .credits(movieID: 1), .videos(movieID: 1, language: nil), .videos(movieID: 1, language: "de"),
            .watchProviders(movieID: 1), .find(imdbID: "tt1"), .find(imdbID: "tt2"),
            .searchPeople(query: "a", page: 1), .searchPeople(query: "a", page: 2), .searchPeople(query: "b", page: 1),
            .person(personID: 1, language: nil), .person(personID: 1, language: "de"),
            .details(movieID: 1, language: nil), .detailsWithParts(movieID: 1, language: nil),
            .detailsWithParts(movieID: 1, language: "de"),
        ]
        let keys = variants.map(\.cacheKey)
        #expect(Set(keys).count == keys.count, "\(keys)")
        // The keys of existing entries did not change: caches written before still answer.
        #expect(CatalogRequest.details(movieID: 550, language: nil).cacheKey == "movie/550?language=")
        #expect(CatalogRequest.popular(page: 2, language: "de", region: nil).cacheKey
            == "popular?language=de&page=2&region=")
    }

    @Test func discoverFilterFindsHalfPairsAndReversedRanges() {
        var filter = DiscoverFilter()
        #expect(filter.problems.isEmpty)
        filter.watchProviderIDs = [8]
        filter.certification = "R"
        filter.releasedFrom = "2020-02-01"
        filter.releasedTo = "2020-01-01"
        filter.minRuntime = 100
        filter.maxRuntime = 90
        #expect(filter.problems.map(\.field) == ["watchRegion", "certificationCountry", "releasedFrom", "minRuntime"])
        filter.watchRegion = "US"
        filter.certificationCountry = "US"
        filter.releasedTo = "2020-02-01"
        filter.maxRuntime = 100
        #expect(filter.problems.isEmpty)
    }

    @Test func tmdbFailuresBecomeDomainErrorsNamingTheRequest() {
        let subject = CatalogRequest.credits(movieID: 7).subject
        func mapped(_ error: TMDBError) -> MovieError? { TMDBCatalogSource.map(error, subject: subject) as? MovieError }
        #expect(mapped(.offline) == .offlineNotCached("movie 7's credits"))
        #expect(mapped(.notFound) == .notFound("movie 7's credits"))
        #expect(mapped(.rateLimited(retryAfter: 2)) == .rateLimited(retryAfter: 2))
        #expect(mapped(.unauthorized(statusMessage: "bad"))
            == .upstreamUnauthorized("TMDB rejected the credential: bad"))
        #expect(mapped(.server(httpStatus: 503, statusCode: 9, message: "down", retryable: true))
            == .upstream(httpStatus: 503, retryable: true, message: "TMDB answered HTTP 503: down"))
        #expect(mapped(.invalidResponse)
            == .upstream(httpStatus: 502, retryable: true, message: "TMDB sent a malformed answer"))
        #expect(TMDBCatalogSource.map(.cancelled, subject: subject) is CancellationError)
    }

    @Test func detailsPartsBecomeTheDomainInOrder() throws {
        let json = """
        {"id": 1, "title": "T",
         "credits": {"cast": [{"id": 2, "name": "B", "character": "b", "order": 1, "profile_path": ""},
                              {"id": 3, "name": "A", "character": "a", "order": 0, "profile_path": "/a.jpg"}],
                     "crew": []},
         "videos": {"results": [
            {"name": "Clip", "key": "k1", "site": "YouTube", "type": "Clip", "official": true, "published_at": "2021"},
            {"name": "Old trailer", "key": "k2", "site": "YouTube", "type": "Trailer", "official": false,
             "published_at": "2019"},
            {"name": "Trailer", "key": "k3", "site": "Vimeo", "type": "Trailer", "official": true,
             "published_at": "2018"},
            {"name": "Bad key", "key": "a/b?c", "site": "YouTube", "type": "Teaser", "official": false,
             "published_at": ""}]},
         "watch/providers": {"results": {"US": {"link": "l", "rent": [
            {"provider_id": 2, "provider_name": "Apple TV", "display_priority": 5, "logo_path": "/x.jpg"},
            {"provider_id": 3, "provider_name": "Google", "display_priority": 1, "logo_path": null}]}}},
         "release_dates": {"results": [{"iso_3166_1": "US", "release_dates": [
            {"certification": "", "type": 1, "release_date": "d"},
            {"certification": "PG", "type": 4, "release_date": "d"},
            {"certification": "R", "type": 3, "release_date": "d"}]}]}}
        """
        let details = TMDBCatalogSource.details(try JSONDecoder().decode(TMDBMovieDetails.self, from: Data(json.utf8)))
        #expect(details.credits?.cast.map(\.name) == ["A", "B"])
        #expect(details.credits?.cast.last?.profilePath == nil)
        #expect(details.videos?.map(\.key) == ["k3", "k2", "k1", "a/b?c"])
        #expect(details.videos?.map(\.url) == [
            "https://vimeo.com/k3", "https://www.youtube.com/watch?v=k2", "https://www.youtube.com/watch?v=k1", nil,
        ])
        #expect(details.watchProviders?["US"]?.rent.map(\.name) == ["Google", "Apple TV"])
        #expect(details.watchProviders?["US"]?.flatrate == [])
        #expect(details.releaseDates.flatMap { $0["US"] }.flatMap(Release.certification(in:)) == "R")
        #expect(Release.certification(in: [Release(certification: "PG", type: 4, date: "")]) == "PG")
        #expect(Release.certification(in: []) == nil)
    }

    @Test func demoRefusesWhatItDoesNotHold() async throws {
        let demo = DemoCatalog.embedded
        for request: CatalogRequest in [
            .credits(movieID: 550), .videos(movieID: 550, language: nil), .watchProviders(movieID: 550),
            .searchPeople(query: "a", page: 1), .person(personID: 1, language: nil),
        ] {
            await #expect(throws: MovieError.self) { try await demo.fetch(request) }
            do {
                _ = try await demo.fetch(request)
            } catch let error as MovieError {
                guard case .unavailableInDemo = error else { Issue.record("\(request): \(error)"); continue }
            }
        }
        guard case .details(let details) = try await demo.fetch(.detailsWithParts(movieID: 550, language: nil)) else {
            Issue.record("not details")
            return
        }
        #expect(details.externalIds?.imdbId == "tt0137523" && details.credits == nil && details.videos == nil)
    }
}
