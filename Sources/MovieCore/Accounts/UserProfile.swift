/// The optional details a user may give. `nil` means not given.
public struct UserProfile: Sendable, Equatable {
    public var displayName: String?
    public var bio: String?
    public var phone: String?
    /// `YYYY-MM-DD`.
    public var birthDate: String?

    /// A profile with the given fields.
    public init(displayName: String? = nil, bio: String? = nil, phone: String? = nil, birthDate: String? = nil) {
        self.displayName = displayName
        self.bio = bio
        self.phone = phone
        self.birthDate = birthDate
    }

    /// This profile with `changes` applied: a given field replaces the old value, an empty string clears it.
    func applying(_ changes: ProfileChanges) -> UserProfile {
        func merge(_ old: String?, _ new: String?) -> String? {
            guard let new else { return old }
            return new.isEmpty ? nil : new
        }
        return UserProfile(
            displayName: merge(displayName, changes.displayName), bio: merge(bio, changes.bio),
            phone: merge(phone, changes.phone), birthDate: merge(birthDate, changes.birthDate))
    }
}
