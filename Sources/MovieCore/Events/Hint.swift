/// A suggestion to try a feature the user has not used yet.
public struct Hint: Sendable, Equatable {
    /// Stable identifier of the rule (`popular`, `favorites`, …).
    public var id: String
    /// The feature, in a few words.
    public var feature: String
    /// What to show the user.
    public var message: String
    /// The method that uses the feature.
    public var method: String

    public init(id: String, feature: String, message: String, method: String) {
        self.id = id
        self.feature = feature
        self.message = message
        self.method = method
    }
}
