import JSONRPC
import MovieCore

/// A user on the wire. Never a password, a hash or a token; absent profile fields are `null`.
public struct UserWire: Encodable, Sendable, Equatable {
    public var id: String
    public var email: String
    public var displayName: String?
    public var bio: String?
    public var phone: String?
    public var birthDate: String?
    public var createdAt: String
    public var provider: String

    public init(_ user: User) {
        id = user.id
        email = user.email
        displayName = user.profile.displayName
        bio = user.profile.bio
        phone = user.profile.phone
        birthDate = user.profile.birthDate
        createdAt = Timestamp.string(user.createdAt)
        provider = user.provider.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case id, email, displayName, bio, phone, birthDate, createdAt, provider
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(email, forKey: .email)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(bio, forKey: .bio)
        try container.encode(phone, forKey: .phone)
        try container.encode(birthDate, forKey: .birthDate)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(provider, forKey: .provider)
    }
}

/// Where the app goes next: the main screen when logged in, the login screen otherwise.
public enum Route: String, Encodable, Sendable {
    case main
    case login
}

/// The `profile` param: `displayName`, `bio`, `phone`, `birthDate`, each optional; `""` clears a field
/// (account.update). Any other member is refused with -32602 naming it (`profile.nickname`).
public struct ProfileParams: Decodable, Sendable, Equatable {
    public var displayName: String?
    public var bio: String?
    public var phone: String?
    public var birthDate: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case displayName, bio, phone, birthDate
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        for key in all.allKeys where CodingKeys(stringValue: key.stringValue) == nil {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: all.codingPath + [key],
                debugDescription: "not a profile field (displayName, bio, phone, birthDate)"))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        bio = try container.decodeIfPresent(String.self, forKey: .bio)
        phone = try container.decodeIfPresent(String.self, forKey: .phone)
        birthDate = try container.decodeIfPresent(String.self, forKey: .birthDate)
    }

    var changes: ProfileChanges {
        ProfileChanges(displayName: displayName, bio: bio, phone: phone, birthDate: birthDate)
    }
}

/// `{user, route: "main"}`: the answer of a registration or a login.
public struct SignedInResult: Encodable, Sendable {
    public var user: UserWire
    public var route: Route

    init(_ user: User) {
        self.user = UserWire(user)
        route = .main
    }
}
