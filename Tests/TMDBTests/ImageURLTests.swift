import Testing
import TMDB

@Suite("Image URLs")
struct ImageURLTests {
    @Test func buildsURLFromSizeAndPath() {
        #expect(TMDBClient.imageURL(path: "/pSt9Qw1xLmN.jpg", size: "w500")
            == "https://image.tmdb.org/t/p/w500/pSt9Qw1xLmN.jpg")
        #expect(TMDBClient.imageURL(path: "/bk.jpg", size: "original") == "https://image.tmdb.org/t/p/original/bk.jpg")
        #expect(TMDBClient.imageURL(path: "noslash.jpg", size: "w92") == "https://image.tmdb.org/t/p/w92/noslash.jpg")
    }

    @Test func nilOrEmptyPathMeansNoImage() {
        #expect(TMDBClient.imageURL(path: nil, size: "w500") == nil)
        #expect(TMDBClient.imageURL(path: "", size: "w500") == nil)
    }

    @Test(arguments: ["", "w501", "W500", "500", "w500 ", "../w500"])
    func invalidSizeGivesNil(size: String) {
        #expect(TMDBClient.imageURL(path: "/a.jpg", size: size) == nil)
    }

    @Test func everyListedSizeIsAccepted() {
        for size in TMDBClient.posterSizes + TMDBClient.backdropSizes {
            #expect(TMDBClient.imageURL(path: "/a.jpg", size: size) == "https://image.tmdb.org/t/p/\(size)/a.jpg")
        }
        #expect(TMDBClient.posterSizes == ["w92", "w154", "w185", "w342", "w500", "w780", "original"])
        #expect(TMDBClient.backdropSizes == ["w300", "w780", "w1280", "original"])
    }
}
