import Foundation
import HTTPTransport
import Testing
@testable import TMDB

@Suite("Credentials and request building")
struct CredentialTests {
    private func query(_ request: HTTPRequest) -> [String] {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        return (components?.queryItems ?? []).map { "\($0.name)=\($0.value ?? "")" }
    }

    @Test func apiKeyGoesIntoTheQuery() async throws {
        let (client, script) = makeClient(.json(200, Fixtures.genreList), credential: .apiKey(TestSecrets.apiKey))
        _ = try await client.send(.movieGenres(language: "en"))
        let request = try #require(await script.requests.first)
        #expect(request.url.absoluteString
            == "https://api.themoviedb.org/3/genre/movie/list?language=en&api_key=\(TestSecrets.apiKey)")
        #expect(request.value(forHeader: "Authorization") == nil)
        #expect(request.value(forHeader: "accept") == "application/json")
        #expect(request.method == .get)
    }

    @Test func accessTokenGoesIntoTheAuthorizationHeader() async throws {
        let (client, script) = makeClient(.json(200, Fixtures.genreList), credential: .accessToken(TestSecrets.token))
        _ = try await client.send(.movieGenres(language: "en"))
        let request = try #require(await script.requests.first)
        #expect(request.value(forHeader: "Authorization") == "Bearer \(TestSecrets.token)")
        #expect(request.value(forHeader: "Accept") == "application/json")
        #expect(query(request) == ["language=en"])
        #expect(!request.url.absoluteString.contains(TestSecrets.token))
    }

    @Test func urlJoinsBasePathAndEncodesQueryValues() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080/mock/3/"))
        let client = TMDBClient(baseURL: base, credential: .accessToken("t"), http: ScriptedHTTPClient())
        let request = try client.request(for: .discoverMovies(genreID: 28, page: 2, language: "en US", region: "US"))
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/mock/3/discover/movie"
            + "?with_genres=28&sort_by=popularity.desc&page=2&language=en%20US&region=US")
    }

    @Test func credentialDescriptionsHideTheSecret() {
        for credential in [TMDBCredential.apiKey(TestSecrets.apiKey), .accessToken(TestSecrets.token)] {
            let texts = [
                "\(credential)", String(reflecting: credential), credential.debugDescription,
                dumped(credential), "\([credential])",
            ]
            for text in texts {
                #expect(!text.contains(TestSecrets.apiKey))
                #expect(!text.contains(TestSecrets.token))
                #expect(text.contains("redacted"))
            }
        }
    }

    @Test func clientAndRequestDescriptionsHideTheSecret() throws {
        let client = TMDBClient(credential: .apiKey(TestSecrets.apiKey), http: ScriptedHTTPClient())
        let request = try client.request(for: .popularMovies(page: 1))
        let bearer = TMDBClient(credential: .accessToken(TestSecrets.token), http: ScriptedHTTPClient())
        let bearerRequest = try bearer.request(for: .popularMovies(page: 1))
        let texts = [
            "\(client)", String(reflecting: client), dumped(client), "\(client.redactor)", dumped(client.redactor),
            "\(request)", String(reflecting: request), dumped(request),
            "\(bearer)", "\(bearerRequest)", dumped(bearerRequest),
        ]
        for text in texts {
            #expect(!text.contains(TestSecrets.apiKey), "\(text)")
            #expect(!text.contains(TestSecrets.token), "\(text)")
        }
        #expect("\(request)".contains("/3/movie/popular"))
    }

    @Test func redactorRemovesPlainAndPercentEncodedSecrets() {
        let redactor = SecretRedactor(secrets: ["a+b/c", ""])
        #expect(redactor.redact("x a+b/c y a%2Bb%2Fc z") == "x <redacted> y <redacted> z")
        #expect(redactor.redact("nothing here") == "nothing here")
    }

    private func dumped<T>(_ value: T) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
