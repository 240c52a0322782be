/// The hint rules: a hint is shown while the user (or the anonymous user, when nobody is logged in) has
/// no stored event of the rule's name. Deleting or pruning those events brings the hint back.
///
/// | id          | while no event   | method           | message                                            |
/// |-------------|------------------|------------------|----------------------------------------------------|
/// | `popular`   | `popular.opened` | `movies.popular` | Browse popular movies with movies.popular          |
/// | `genres`    | `genre.opened`   | `movies.byGenre` | Explore one genre's movies with movies.byGenre     |
/// | `details`   | `movie.viewed`   | `movies.details` | Open a movie's details with movies.details         |
/// | `favorites` | `favorite.added` | `favorites.add`  | Keep movies you like with favorites.add            |
/// | `offline`   | `catalog.synced` | `catalog.sync`   | Save the catalog for offline use with catalog.sync |
public enum HintRules {
    /// One rule: `hint` is shown while no `eventName` event of the user is stored.
    public struct Rule: Sendable, Equatable {
        public var eventName: String
        public var hint: Hint
    }

    /// Every rule, in the order hints are listed.
    public static let all: [Rule] = [
        Rule(eventName: "popular.opened", hint: Hint(
            id: "popular", feature: "Popular movies", message: "Browse popular movies with movies.popular",
            method: "movies.popular")),
        Rule(eventName: "genre.opened", hint: Hint(
            id: "genres", feature: "Movies by genre", message: "Explore one genre's movies with movies.byGenre",
            method: "movies.byGenre")),
        Rule(eventName: "movie.viewed", hint: Hint(
            id: "details", feature: "Movie details", message: "Open a movie's details with movies.details",
            method: "movies.details")),
        Rule(eventName: "favorite.added", hint: Hint(
            id: "favorites", feature: "Favorites", message: "Keep movies you like with favorites.add",
            method: "favorites.add")),
        Rule(eventName: "catalog.synced", hint: Hint(
            id: "offline", feature: "Offline catalog",
            message: "Save the catalog for offline use with catalog.sync", method: "catalog.sync")),
    ]

    /// The hints for a user whose stored events have these names.
    public static func hints(usedEventNames: Set<String>) -> [Hint] {
        all.filter { !usedEventNames.contains($0.eventName) }.map(\.hint)
    }
}
