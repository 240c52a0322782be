import Foundation
import Testing

@testable import MovieCore
@testable import MovieRPC

/// `favorites.contains` calls waiting at the same time share one read of the session and the favorites.
@Suite struct FavoriteIDsSharingTests {
    private static func movie(_ id: Int) -> MovieSummary {
        MovieSummary(
            id: id, title: "Movie \(id)", originalTitle: "Movie \(id)", overview: "About \(id)",
            releaseDate: "1999-10-15", genreIds: [18], voteAverage: 8.4, voteCount: 26_280, popularity: 61.4,
            adult: false, originalLanguage: "en", posterPath: "/p\(id).jpg", backdropPath: nil)
    }

    @Test func concurrentCallsShareReadsAndEachSeesWhatWasWrittenBeforeIt() async throws {
        let directory = DataDirectory(path: NSTemporaryDirectory() + "FavoriteIDsSharingTests-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        var configuration = ServerConfiguration(dataDirectory: directory)
        configuration.passwordIterations = 1000
        let services = try MovieServer(configuration: configuration).context.services
        let ada = try await services.accounts.register(email: "ada@example.com", password: "secret!")
        for id in [550, 13] { try await services.favorites.add(userID: ada.id, movie: Self.movie(id)) }

        let calls = 32
        let seen = try await withThrowingTaskGroup(of: MovieServices.CurrentFavoriteIDs.self) { group in
            for _ in 0..<calls { group.addTask { try await services.currentUserFavoriteIDs() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen.allSatisfy { $0.userID == ada.id && $0.ids == [550, 13] })
        // The calls that arrive while a read runs wait for the next one (SharedReadTests shows how many);
        // one read per call would be `calls`.
        let reads = services.favoriteIDsReads
        #expect(reads < calls)

        // A read never answers a call that began after it started: a change made before the call is seen.
        try await services.favorites.add(userID: ada.id, movie: Self.movie(680))
        #expect(try await services.currentUserFavoriteIDs().ids == [550, 13, 680])
        #expect(services.favoriteIDsReads == reads + 1)
    }

    @Test func nobodyLoggedInIsLoginRequiredForEveryCaller() async throws {
        let directory = DataDirectory(path: NSTemporaryDirectory() + "FavoriteIDsSharingTests-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let services = try MovieServer(configuration: ServerConfiguration(dataDirectory: directory)).context.services
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        _ = try await services.currentUserFavoriteIDs()
                        return false
                    } catch MovieError.loginRequired {
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 8)
    }
}
