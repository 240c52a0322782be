import Foundation
import Testing
import TMDB

/// Upstream totals below zero mean nothing; the wire promises `minimum: 0`, so decoding clamps them.
@Suite("Page totals")
struct PageTotalsTests {
    @Test(arguments: [(-3, -1), (Int.min, -1), (-1, Int.min)])
    func negativeTotalsBecomeZero(pages: Int, results: Int) throws {
        let json = #"{"page": 1, "results": [], "total_pages": \#(pages), "total_results": \#(results)}"#
        let page = try JSONDecoder().decode(TMDBPage<TMDBMovieListItem>.self, from: Data(json.utf8))
        #expect(page.totalPages == 0 && page.totalResults == 0 && page.reachablePages == 0)
    }
}
