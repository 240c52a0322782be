#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// How to reach Firebase Auth: the Web API key (`FIREBASE_API_KEY`) and, for the Auth Emulator,
/// `FIREBASE_AUTH_EMULATOR_HOST` (`host:port`, no scheme), which turns the production hosts into path
/// prefixes on plain HTTP the way Firebase's SDKs do:
/// `http://HOST/identitytoolkit.googleapis.com/v1/accounts:signUp` and
/// `http://HOST/securetoken.googleapis.com/v1/token`.
///
/// The key is a credential: it goes in the `key` query item only and never into an error or a log line
/// (``description`` hides it).
public struct FirebaseConfiguration: Sendable, Equatable, CustomStringConvertible {
    /// The Web API key (a credential; sent only as the `key` query item).
    public var apiKey: String
    /// `host:port` of the Auth Emulator (or the fake in tests); nil for production.
    public var emulatorHost: String?
    /// Seconds per request (fractions work).
    public var timeoutSeconds: Double
    /// The key that seals refresh tokens in the database (``TokenSealer``), created when missing; nil: refresh
    /// tokens are not stored, and a session lasts as long as the process.
    public var tokenKeyFile: String?

    /// A configuration.
    public init(
        apiKey: String, emulatorHost: String? = nil, timeoutSeconds: Double = 10, tokenKeyFile: String? = nil
    ) {
        self.apiKey = apiKey
        self.emulatorHost = emulatorHost
        self.timeoutSeconds = timeoutSeconds
        self.tokenKeyFile = tokenKeyFile
    }

    /// `https://identitytoolkit.googleapis.com/v1/` or its emulator form.
    var identityToolkitBase: String {
        if let host = emulatorHostWithoutScheme { return "http://\(host)/identitytoolkit.googleapis.com/v1/" }
        return "https://identitytoolkit.googleapis.com/v1/"
    }

    /// `https://securetoken.googleapis.com/v1/token` or its emulator form.
    var secureTokenEndpoint: String {
        if let host = emulatorHostWithoutScheme { return "http://\(host)/securetoken.googleapis.com/v1/token" }
        return "https://securetoken.googleapis.com/v1/token"
    }

    private var emulatorHostWithoutScheme: String? {
        guard var host = emulatorHost?.trimmingWhitespace(), !host.isEmpty else { return nil }
        for scheme in ["http://", "https://"] where host.lowercased().hasPrefix(scheme) {
            host = String(host.dropFirst(scheme.count))
        }
        while host.hasSuffix("/") { host.removeLast() }
        return host
    }

    /// The URL of an Identity Toolkit operation (`accounts:signUp`) or of the token endpoint, with the key.
    func url(_ endpoint: FirebaseEndpoint) -> URL? {
        let base: String
        switch endpoint {
        case .accounts(let operation): base = identityToolkitBase + "accounts:" + operation
        case .token: base = secureTokenEndpoint
        }
        guard var components = URLComponents(string: base) else { return nil }
        components.queryItems = [URLQueryItem(name: "key", value: apiKey)]
        return components.url
    }

    /// Production or emulator, with the key hidden.
    public var description: String {
        "Firebase Auth (\(emulatorHost.map { "emulator at \($0)" } ?? "production"), key <redacted>)"
    }
}

/// A Firebase Auth REST endpoint.
enum FirebaseEndpoint: Sendable, Equatable {
    /// `accounts:<operation>` on Identity Toolkit: signUp, signInWithPassword, lookup, update, delete.
    case accounts(String)
    /// Secure Token's `token` (refresh).
    case token
}
