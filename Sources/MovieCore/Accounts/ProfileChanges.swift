/// Profile fields to set: `nil` leaves a field as it is, `""` clears it.
public struct ProfileChanges: Sendable, Equatable {
    public var displayName: String?
    public var bio: String?
    public var phone: String?
    public var birthDate: String?

    /// Changes of the given fields.
    public init(displayName: String? = nil, bio: String? = nil, phone: String? = nil, birthDate: String? = nil) {
        self.displayName = displayName
        self.bio = bio
        self.phone = phone
        self.birthDate = birthDate
    }

    /// Whether no field is to change.
    public var isEmpty: Bool { displayName == nil && bio == nil && phone == nil && birthDate == nil }
}
