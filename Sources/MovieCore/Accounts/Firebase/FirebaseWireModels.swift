/// Request and response bodies of the Firebase Auth REST API, as documented (Identity Toolkit v1 uses
/// camelCase; Secure Token's refresh uses snake_case). `expiresIn` values are strings of seconds.
enum FirebaseWire {
    struct PasswordRequest: Encodable {
        var email: String
        var password: String
        var displayName: String?
        var returnSecureToken = true
    }

    /// `accounts:signUp` and `accounts:signInWithPassword`.
    struct SignInResponse: Decodable {
        var localId: String
        var email: String?
        var displayName: String?
        var idToken: String
        var refreshToken: String
        var expiresIn: String
    }

    struct IDTokenRequest: Encodable {
        var idToken: String
    }

    /// `accounts:lookup`.
    struct LookupResponse: Decodable {
        var users: [UserRecord]?
    }

    struct UserRecord: Decodable {
        var localId: String
        var email: String?
        var displayName: String?
        /// Milliseconds since 1970, as a string.
        var createdAt: String?
        var disabled: Bool?
    }

    /// `accounts:update`: a new password and/or display name (`deleteAttribute: ["DISPLAY_NAME"]` clears it).
    struct UpdateRequest: Encodable {
        var idToken: String
        var password: String?
        var displayName: String?
        var deleteAttribute: [String]?
        var returnSecureToken: Bool
    }

    struct UpdateResponse: Decodable {
        var localId: String?
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
    }

    /// `securetoken.googleapis.com/v1/token`.
    struct RefreshResponse: Decodable {
        var idToken: String
        var refreshToken: String
        var expiresIn: String
        var userID: String?

        enum CodingKeys: String, CodingKey {
            case idToken = "id_token"
            case refreshToken = "refresh_token"
            case expiresIn = "expires_in"
            case userID = "user_id"
        }
    }

    /// `{"error": {"code": 400, "message": "EMAIL_EXISTS", "status": "INVALID_ARGUMENT", ...}}`
    struct ErrorResponse: Decodable {
        struct Detail: Decodable {
            var code: Int?
            var message: String?
            var status: String?
        }
        var error: Detail
    }
}
