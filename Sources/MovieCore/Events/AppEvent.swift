/// Every event the server records about what the user did: the single registry of event names.
/// Params hold integers, doubles, strings, booleans, or arrays of those (`EventValue`).
public enum AppEvent: Sendable, Equatable {
    case genresOpened
    case genreOpened(genreID: Int)
    case popularOpened(page: Int)
    case latestOpened
    case movieViewed(movieID: Int)
    case favoriteAdded(movieID: Int)
    case favoriteRemoved(movieID: Int)
    case userRegistered
    case userLoggedIn
    case userLoggedOut
    case catalogSynced(pages: Int)

    /// Every name, for documentation and hints.
    public static let allNames = [
        "genres.opened", "genre.opened", "popular.opened", "latest.opened", "movie.viewed", "favorite.added",
        "favorite.removed", "user.registered", "user.loggedIn", "user.loggedOut", "catalog.synced",
    ]

    public var name: String {
        switch self {
        case .genresOpened: return "genres.opened"
        case .genreOpened: return "genre.opened"
        case .popularOpened: return "popular.opened"
        case .latestOpened: return "latest.opened"
        case .movieViewed: return "movie.viewed"
        case .favoriteAdded: return "favorite.added"
        case .favoriteRemoved: return "favorite.removed"
        case .userRegistered: return "user.registered"
        case .userLoggedIn: return "user.loggedIn"
        case .userLoggedOut: return "user.loggedOut"
        case .catalogSynced: return "catalog.synced"
        }
    }

    public var params: [String: EventValue] {
        switch self {
        case .genreOpened(let genreID): return ["genreId": .int(genreID)]
        case .popularOpened(let page): return ["page": .int(page)]
        case .movieViewed(let movieID), .favoriteAdded(let movieID), .favoriteRemoved(let movieID):
            return ["movieId": .int(movieID)]
        case .catalogSynced(let pages): return ["pages": .int(pages)]
        case .genresOpened, .latestOpened, .userRegistered, .userLoggedIn, .userLoggedOut: return [:]
        }
    }
}

/// A value of an event parameter: a scalar, or an array of scalars (never nested, never null inside).
public enum EventValue: Sendable, Hashable, Codable {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    case array([EventScalar])

    /// Set (to `true`) in the `userInfo` of a decoder reading stored events: those are decoded whole, even
    /// an array longer than `events.add` now accepts.
    static let storedKey = CodingUserInfoKey(rawValue: "movie-rpc.storedEvent")!  // safe: literal non-empty key

    /// An array is decoded element by element and, from a client, refused past
    /// `EventValidation.maxArrayLength`: a 1.5-million-element array in one `events.add` once cost seconds
    /// of decoding before any check.
    public init(from decoder: any Decoder) throws {
        let problem = "must be an integer, number, string, boolean, or an array of those (no null, no objects)"
        if var elements = try? decoder.unkeyedContainer() {
            var values: [EventScalar] = []
            while !elements.isAtEnd {
                guard values.count < EventValidation.maxArrayLength || decoder.userInfo[Self.storedKey] != nil else {
                    throw DecodingError.dataCorrupted(DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription: "must have at most \(EventValidation.maxArrayLength) elements"))
                }
                guard let element = try? elements.decode(EventScalar.self) else {
                    throw DecodingError.dataCorrupted(
                        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: problem))
                }
                values.append(element)
            }
            self = .array(values)
            return
        }
        let container = try decoder.singleValueContainer()
        guard let scalar = try? container.decode(EventScalar.self) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: problem)
        }
        switch scalar {
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .bool(let value): self = .bool(value)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        }
    }
}

/// A scalar event value.
public enum EventScalar: Sendable, Hashable, Codable {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "null is not allowed")
        }
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "must be an integer, number, string or boolean")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        }
    }
}
