import Foundation
import HTTPTransport
import Testing
import TMDB

@testable import MovieCore

/// Firebase's weak-password detail reaches the client; an emulator or proxy echoing the API key in it must
/// not carry the key along.
@Suite struct FirebaseErrorRedactionTests {
    static let key = "AIzaSyExample-Firebase_Key0123456789"

    @Test(arguments: [key, String(key.prefix(16)), key.lowercased()])
    func theAPIKeyNeverReachesTheProblemText(echo: String) throws {
        let body = #"{"error": {"code": 400, "message": "WEAK_PASSWORD : key \#(echo) is weak"}}"#
        let error = FirebaseAuthClient.error(
            from: HTTPResponse(statusCode: 400, body: Data(body.utf8)), redactor: SecretRedactor(secrets: [Self.key]))
        guard case .validationFailed(let problems)? = error.movieError() as? MovieError else {
            Issue.record("unexpected \(error)")
            return
        }
        let text = problems.map(\.problem).joined()
        #expect(!text.lowercased().contains(String(Self.key.prefix(8)).lowercased()), "\(text)")
        #expect(text.contains(SecretRedactor.placeholder), "\(text)")
    }
}
