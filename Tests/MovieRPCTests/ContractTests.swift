import Foundation
import JSONRPC
import MovieCore
import Testing

@testable import MovieRPC

/// The repository's root, found from this file's path (Tests/MovieRPCTests/ContractTests.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite struct ContractTests {
    @Test func embeddedDocumentIsSchemaOpenRPCJSON() throws {
        let file = try Data(contentsOf: repositoryRoot.appendingPathComponent("schema/openrpc.json"))
        let fromFile = try JSONDecoder().decode(JSONValue.self, from: file)
        let embedded = try JSONDecoder().decode(JSONValue.self, from: Data(OpenRPCContract.embedded.minifiedDocument))
        #expect(fromFile == embedded, "run: python3 scripts/embed-resources.py")
    }

    @Test func everyMethodIsInTheDocumentAndEveryDocumentedMethodIsServed() {
        let served = Set(MethodList.all.map { $0.name } + MethodList.rawMethods)
        let documented = Set(OpenRPCContract.embedded.methodNames)
        #expect(served.subtracting(documented).isEmpty, "served but undocumented")
        #expect(documented.subtracting(served).isEmpty, "documented but not served")
    }

    @Test func embeddedParamNamesAreTheDocumentsParamNames() throws {
        let decoded = try OpenRPCContract(document: Data(OpenRPCContract.embedded.minifiedDocument))
        #expect(OpenRPCContract.embedded.methodParams == decoded.methodParams, "run: python3 scripts/embed-resources.py")
        #expect(decoded.methodParams["events.add"] == ["name", "timestamp", "params"])
    }

    @Test func minifiedDocumentHasNoNewline() {
        #expect(!OpenRPCContract.embedded.minifiedDocument.contains(UInt8(ascii: "\n")))
    }
}

@Suite struct WireErrorTests {
    @Test func domainErrorsMapToTheFixedTable() {
        let cases: [(MovieError, Int, String)] = [
            (.validationFailed([.init(field: "email", problem: "is required")]), -32010, "validationFailed"),
            (.loginRequired, -32011, "loginRequired"),
            (.invalidCredentials, -32012, "invalidCredentials"),
            (.emailTaken, -32013, "emailTaken"),
            (.tooManyAttempts(retryAfter: 30), -32014, "tooManyAttempts"),
            (.alreadyFavorite(movieID: 550), -32020, "alreadyFavorite"),
            (.notFound("movie 1"), -32021, "notFound"),
            (.offlineNotCached("the genre list"), -32030, "offlineNotCached"),
            (.upstream(httpStatus: 503, retryable: true, message: "TMDB answered HTTP 503"), -32031, "upstreamError"),
            (.upstreamUnauthorized("TMDB rejected the credential"), -32032, "upstreamUnauthorized"),
            (.rateLimited(retryAfter: 2), -32033, "rateLimited"),
            (.storage(.readOnly), -32040, "storageError"),
        ]
        for (error, code, kind) in cases {
            let wire = WireErrors.map(error)
            #expect(wire.code.rawValue == code)
            #expect(wire.data?["kind"] == .string(kind))
            #expect(!wire.message.isEmpty)
        }
        let validation = WireErrors.map(MovieError.validationFailed([.init(field: "email", problem: "is required")]))
        #expect(validation.data?["fields"] == [["field": "email", "problem": "is required"]])
        let upstream = WireErrors.map(MovieError.upstream(httpStatus: 503, retryable: true, message: "x"))
        #expect(upstream.data?["httpStatus"] == 503 && upstream.data?["retryable"] == true)
    }

    @Test func unknownErrorsLeakNothing() {
        struct SecretFailure: Error { let detail = "SELECT * FROM users WHERE password = 'hunter2'" }
        let wire = WireErrors.map(SecretFailure())
        #expect(wire.code == .internalError && wire.message == "Internal error")
        #expect(!"\(wire)".contains("hunter2"))
    }
}
