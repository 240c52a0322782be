#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where an account lives: this machine's database, or Firebase Auth.
public enum AccountProviderKind: String, Sendable, Equatable, Codable {
    case local
    case firebase
}

/// A user as the domain knows it. Never holds a password, a hash or a token.
public struct User: Sendable, Equatable {
    /// Local accounts: a random UUID; Firebase accounts: Firebase's `localId`.
    public var id: String
    /// The address as the user typed it at registration (compared case-insensitively).
    public var email: String
    /// Optional details.
    public var profile: UserProfile
    /// When the account was created (Firebase: as Firebase reports it on login).
    public var createdAt: Date
    /// Where the account lives.
    public var provider: AccountProviderKind

    /// A user value (it is stored by ``AccountStore``, not by creating one).
    public init(id: String, email: String, profile: UserProfile, createdAt: Date, provider: AccountProviderKind) {
        self.id = id
        self.email = email
        self.profile = profile
        self.createdAt = createdAt
        self.provider = provider
    }
}
