import Foundation
import JSONRPC
import MovieCore
import Testing

@testable import MovieRPC

/// Hot answers' members are written once per stored copy; the bytes served never differ from writing anew.
@Suite struct EncodedAnswersTests {
    let page = CatalogWireTests.page

    func written(_ value: some JSONWritable) -> String {
        String(decoding: value.writtenJSON, as: UTF8.self)
    }

    @Test func aCachedPageIsByteForByteTheOneWrittenAnew() {
        let answers = EncodedAnswers()
        for (source, stale) in [(CatalogSourceKind.cache, true), (.network, false), (.demo, false)] {
            let sourced = Sourced(value: page, source: source, fetchedAt: CatalogWireTests.fetchedAt, stale: stale)
            let fresh = written(MoviePageResult(sourced, sizes: .default))
            for _ in 0..<2 {
                #expect(written(MoviePageResult(sourced, sizes: .default, answers: answers, request: .popular(page: 2, language: nil, region: nil)))
                        == fresh)
            }
        }
        #expect(written(MoviePageResult(
            Sourced(value: MoviePage(page: 1, totalPages: 1, totalResults: 0, results: []), source: .cache,
                    fetchedAt: CatalogWireTests.fetchedAt, stale: false),
            sizes: .default, answers: answers, request: .popular(page: 1, language: "empty", region: nil)))
            == #"{"page":1,"totalPages":1,"totalResults":0,"results":[],"source":"cache","fetchedAt":"2026-01-01T00:00:00.000Z","stale":false}"#)
    }

    @Test func anotherStoredCopyIsWrittenAgain() {
        let answers = EncodedAnswers()
        let old = Sourced(value: [Genre(id: 28, name: "Action")], source: .cache,
                          fetchedAt: CatalogWireTests.fetchedAt, stale: false)
        let new = Sourced(value: [Genre(id: 28, name: "Aktion")], source: .network,
                          fetchedAt: CatalogWireTests.fetchedAt.addingTimeInterval(60), stale: false)
        #expect(written(GenresList.Result(sourced: old, answers: answers, request: .genres(language: nil))).contains("Action"))
        #expect(written(GenresList.Result(sourced: new, answers: answers, request: .genres(language: nil))).contains("Aktion"))
        // The same copy again, read from the cache with its provenance written for this request.
        let again = Sourced(value: new.value, source: .cache, fetchedAt: new.fetchedAt, stale: true)
        #expect(written(GenresList.Result(sourced: again, answers: answers, request: .genres(language: nil)))
                == written(GenresList.Result(sourced: again)))
        #expect(answers.count == 1)
    }

    /// `source` and `fetchedAt` are kept with a copy for the source it was last served as: a copy fetched
    /// (`network`) and then read (`cache`) says which each time, and demo answers, made anew for each
    /// request, each say when.
    @Test func theKeptProvenanceFollowsTheSourceAndDemoAnswersTellTheirOwnTime() {
        let answers = EncodedAnswers()
        let genres = [Genre(id: 28, name: "Action")]
        for source in [CatalogSourceKind.network, .cache, .cache, .network, .cache] {
            let sourced = Sourced(value: genres, source: source, fetchedAt: CatalogWireTests.fetchedAt, stale: false)
            let served = written(GenresList.Result(sourced: sourced, answers: answers, request: .genres(language: nil)))
            #expect(served == written(GenresList.Result(sourced: sourced)))
            #expect(served.contains(#""source":"\#(source.rawValue)""#))
        }
        for second in 0..<3 {
            let demo = Sourced(value: genres, source: .demo,
                               fetchedAt: CatalogWireTests.fetchedAt.addingTimeInterval(Double(second)), stale: false)
            let served = written(GenresList.Result(sourced: demo, answers: answers, request: .genres(language: "en")))
            #expect(served.contains(#""fetchedAt":"2026-01-01T00:00:0\#(second).000Z""#))
        }
    }

    @Test func partialAnswersAreNotKeptAndTheCacheIsBounded() {
        let answers = EncodedAnswers(capacity: 3)
        let partial = Sourced(value: page, source: .cache, fetchedAt: CatalogWireTests.fetchedAt, stale: false,
                              complete: false)
        _ = MoviePageResult(partial, sizes: .default, answers: answers, request: .popular(page: 3, language: "x", region: nil))
        #expect(answers.count == 0)
        for index in 0..<10 {
            let sourced = Sourced(value: page, source: .cache, fetchedAt: CatalogWireTests.fetchedAt, stale: false)
            _ = MoviePageResult(sourced, sizes: .default, answers: answers, request: .popular(page: index, language: nil, region: nil))
        }
        #expect(answers.count == 3)
    }

    @Test func sizesAreAPartOfTheKey() {
        let answers = EncodedAnswers()
        let sourced = Sourced(value: page, source: .cache, fetchedAt: CatalogWireTests.fetchedAt, stale: false)
        let small = ImageSizes(poster: "w92", backdrop: "w300")
        _ = MoviePageResult(sourced, sizes: .default, answers: answers, request: .popular(page: 2, language: nil, region: nil))
        #expect(written(MoviePageResult(sourced, sizes: small, answers: answers, request: .popular(page: 2, language: nil, region: nil)))
                == written(MoviePageResult(sourced, sizes: small)))
    }
}
