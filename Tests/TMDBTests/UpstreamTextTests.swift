import Foundation
import HTTPTransport
import Testing

@testable import TMDB

/// TMDB's `status_message` reaches clients only cleaned, capped and without the credential in any form.
@Suite("Upstream text and the credential redactor")
struct UpstreamTextTests {
    static let key = TestSecrets.apiKey  // 0123abcd4567ef89deadbeefcafe0042

    private func message(_ status: Int, _ statusMessage: String) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: [
            "status_code": 7, "status_message": statusMessage, "success": false,
        ])
        let (client, _) = makeClient(.json(status, String(decoding: body, as: UTF8.self)))
        let error: TMDBError
        do {
            _ = try await client.send(.movieGenres())
            Issue.record("no error")
            return ""
        } catch let thrown {
            error = thrown
        }
        switch error {
        case .unauthorized(let message): return message
        case .server(_, _, let message, _): return message ?? ""
        default:
            Issue.record("unexpected \(error)")
            return ""
        }
    }

    @Test(arguments: [401, 500])
    func aHugeMessageWithEscapesIsCleanedAndCapped(status: Int) async throws {
        let hostile = "\u{1b}]0;owned\u{07}\u{1b}[2J\u{1b}[31mInvalid\u{202e}gnp.exe\u{200b} key\n\tplease\u{0}"
            + String(repeating: "A", count: 64 << 10)  // 1 MB goes over pipes (test_upstream_text.py); a debug
                                                        // build decoding it would hold a cooperative thread
        let text = try await message(status, hostile)
        #expect(text.count <= UpstreamText.maxCharacters)
        #expect(text.hasPrefix("Invalidgnp.exe key pleaseAAAA"), "\(text.prefix(40))")
        #expect(text.hasSuffix("…"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) })
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .format })
    }

    @Test(arguments: [
        // lowercase and uppercase percent-encoding, partial and double encoding
        "api_key=%30%31%32%33%61%62%63%64%34%35%36%37%65%66%38%39%64%65%61%64%62%65%65%66%63%61%66%65%30%30%34%32",
        "api_key=%30%31%32%33%41%42%43%44%34%35%36%37%45%46%38%39%44%45%41%44%42%45%45%46%43%41%46%45%30%30%34%32",
        "key 0123%61bcd4567ef89%64eadbeefcafe0042 refused", "key %2530%2531%2532%2533abcd4567ef89deadbeef rejected",
        // prefixes, a cut-off copy, another case
        "Invalid API key 0123abcd4567", "…deadbeefcafe0042", "KEY 0123ABCD4567EF89DEADBEEFCAFE0042",
        // hex and base64 of the key
        "30313233616263643435363765663839", "MDEyM2FiY2Q0NTY3ZWY4OWRlYWRiZWVmY2FmZTAwNDI=",
        // split by an escape sequence, which cleaning removes first
        "0123abcd\u{1b}[0m4567ef89",
    ])
    func everyFormOfTheKeyIsRedacted(statusMessage: String) async throws {
        let text = try await message(401, statusMessage)
        #expect(text.contains(SecretRedactor.placeholder), "\(text)")
        let lowered = text.lowercased()
        for start in stride(from: 0, through: Self.key.count - 8, by: 1) {
            let fragment = Self.key.dropFirst(start).prefix(8)
            #expect(!lowered.contains(fragment), "\(text) holds \(fragment)")
        }
        #expect(!lowered.contains("%6"), "\(text)")
    }

    @Test func ordinaryTextIsKept() {
        let redactor = SecretRedactor(secrets: [Self.key])
        let text = "The resource you requested could not be found (status 34, id 550, 2024-03-08)."
        #expect(redactor.redact(text) == text)
        #expect(UpstreamText.sanitized("Über 50 Zeichen — naïve 東京") == "Über 50 Zeichen — naïve 東京")
        #expect(UpstreamText.sanitized(String(repeating: "x", count: 200)).count == 200)
        #expect(UpstreamText.sanitized(String(repeating: "x", count: 201)).count == 200)
    }

    @Test func nothingReadableLeftIsNoMessage() async throws {
        let (client, _) = makeClient(.json(500, #"{"status_code": 11, "status_message": "\u001b[2J\u0007 "}"#))
        await #expect(throws: TMDBError.server(httpStatus: 500, statusCode: 11, message: nil, retryable: true)) {
            _ = try await client.send(.movieGenres())
        }
    }

    @Test func aBearerTokenIsRedactedToo() {
        let redactor = SecretRedactor(secrets: [TestSecrets.token])
        let encoded = TestSecrets.token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        for text in [TestSecrets.token, encoded.lowercased(), String(TestSecrets.token.prefix(12))] {
            #expect(redactor.redact("Bearer \(text) refused") == "Bearer <redacted> refused", "\(text)")
        }
    }
}
