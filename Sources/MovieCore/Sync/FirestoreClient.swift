#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// The Cloud Firestore REST calls sync needs (v1: `documents:commit`, `:runQuery`, `get`, `list`), as
/// data in and data out, each with the user's Firebase ID token as `Authorization: Bearer`. Requests
/// are never logged (their headers carry the token); every failure is a ``FirestoreError``.
struct FirestoreClient: Sendable {
    let configuration: SyncConfiguration
    let http: any HTTPClient

    /// The most writes one commit may hold (Firestore's limit).
    static let maxWritesPerCommit = 500

    /// One write of a commit.
    enum Write: Sendable, Equatable {
        /// Replaces the document's fields; `serverTimeField` is set to the commit's request time.
        case update(name: String, fields: [String: FirestoreValue], serverTimeField: String?)
        case delete(name: String)
    }

    /// Full document name of `path` (`users/u/favorites/550`).
    func name(_ path: String) -> String { configuration.documentsRoot + "/" + path }

    /// `documents:commit`: every write or none. Returns each update's `updateTime`, in order.
    @discardableResult
    func commit(_ writes: [Write], idToken: String) async throws -> [String?] {
        guard writes.count <= Self.maxWritesPerCommit else {
            throw FirestoreError.api(httpStatus: 0, status: "TOO_MANY_WRITES")
        }
        let body = CommitRequest(writes: writes.map(WireWrite.init))
        let response: CommitResponse = try await send(
            .post, path: configuration.documentsRoot + ":commit", query: [], body: try encode(body), idToken: idToken)
        return (response.writeResults ?? []).map(\.updateTime)
    }

    /// `:runQuery` over the collection `collectionID` under `parentPath` (`users/u`): documents whose
    /// `field` timestamp is after `after` (all when nil), ordered by it and then by name, from the cursor
    /// `startAfter` (the last one of a previous page), at most `limit`.
    func changedSince(
        parentPath: String, collectionID: String, field: String, after: Int64?,
        startAfter: (microseconds: Int64, name: String)?, limit: Int, idToken: String
    ) async throws -> [FirestoreDocument] {
        var query = StructuredQuery(
            from: [.init(collectionId: collectionID)],
            orderBy: [.init(field: .init(fieldPath: field)), .init(field: .init(fieldPath: "__name__"))],
            limit: limit)
        if let after {
            query.where_ = .init(fieldFilter: .init(
                field: .init(fieldPath: field), op: "GREATER_THAN",
                value: .timestamp(FirestoreTime.string(microseconds: after))))
        }
        if let startAfter {
            query.startAt = .init(
                values: [.timestamp(FirestoreTime.string(microseconds: startAfter.microseconds)),
                         .reference(startAfter.name)],
                before: false)
        }
        let rows: [RunQueryRow] = try await send(
            .post, path: name(parentPath) + ":runQuery", query: [],
            body: try encode(RunQueryRequest(structuredQuery: query)), idToken: idToken)
        return rows.compactMap(\.document)
    }

    /// The document at `path`, or nil when there is none.
    func get(_ path: String, idToken: String) async throws -> FirestoreDocument? {
        do {
            return try await send(.get, path: name(path), query: [], body: nil, idToken: idToken)
        } catch FirestoreError.api(httpStatus: 404, _) {
            return nil
        }
    }

    /// One page of the names of the documents in the collection at `path`; the next page's token or nil.
    func listNames(_ path: String, pageSize: Int, pageToken: String?, idToken: String) async throws
        -> (names: [String], next: String?)
    {
        var query = [URLQueryItem(name: "pageSize", value: String(pageSize)),
                     URLQueryItem(name: "mask.fieldPaths", value: "movieId")]
        if let pageToken { query.append(URLQueryItem(name: "pageToken", value: pageToken)) }
        let page: ListResponse = try await send(.get, path: name(path), query: query, body: nil, idToken: idToken)
        return ((page.documents ?? []).compactMap(\.name), page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 })
    }

    // MARK: Transport

    private func encode<T: Encodable>(_ value: T) throws -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw FirestoreError.malformed(httpStatus: 0)
        }
    }

    private func send<Response: Decodable>(
        _ method: HTTPMethod, path: String, query: [URLQueryItem], body: Data?, idToken: String
    ) async throws -> Response {
        // The path holds only the project id (checked), uids (Firebase's alphabet) and numbers; the
        // percent-encoding keeps "(default)" and ":" as Firestore's examples show them.
        guard var components = URLComponents(string: configuration.apiBase) else {
            throw FirestoreError.api(httpStatus: 0, status: "MISCONFIGURED")
        }
        components.percentEncodedPath += path
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else { throw FirestoreError.api(httpStatus: 0, status: "MISCONFIGURED") }
        var headers = ["Authorization": "Bearer " + idToken, "Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        let response: HTTPResponse
        do {
            response = try await http.send(HTTPRequest(url: url, method: method, headers: headers, body: body))
        } catch {
            throw FirestoreError.transport(HTTPTransportError(error))
        }
        guard response.isSuccess else { throw Self.error(from: response) }
        do {
            return try JSONDecoder().decode(Response.self, from: response.body)
        } catch {
            throw FirestoreError.malformed(httpStatus: response.statusCode)
        }
    }

    /// `{"error": {"code", "message", "status"}}`, or an array of one such (runQuery streams its errors).
    static func error(from response: HTTPResponse) -> FirestoreError {
        struct Body: Decodable {
            struct Detail: Decodable { var status: String? }
            var error: Detail
        }
        let decoder = JSONDecoder()
        let detail = (try? decoder.decode(Body.self, from: response.body))
            ?? (try? decoder.decode([Body].self, from: response.body))?.first
        let status = detail?.error.status ?? "HTTP_\(response.statusCode)"
        // Only an upper-case status name is kept: nothing else of the upstream text is shown.
        let safe = status.utf8.count <= 40 && status.allSatisfy { $0.isUppercase || $0 == "_" || $0.isNumber }
        return .api(httpStatus: response.statusCode, status: safe ? status : "HTTP_\(response.statusCode)")
    }

    // MARK: Wire shapes

    private struct CommitRequest: Encodable { var writes: [WireWrite] }

    private struct WireWrite: Encodable {
        struct Transform: Encodable {
            var fieldPath: String
            var setToServerValue = "REQUEST_TIME"
        }
        var update: FirestoreDocument?
        var updateTransforms: [Transform]?
        var delete: String?

        init(_ write: Write) {
            switch write {
            case .update(let name, let fields, let serverTimeField):
                update = FirestoreDocument(name: name, fields: fields)
                updateTransforms = serverTimeField.map { [Transform(fieldPath: $0)] }
            case .delete(let name):
                delete = name
            }
        }
    }

    private struct CommitResponse: Decodable {
        struct WriteResult: Decodable { var updateTime: String? }
        var writeResults: [WriteResult]?
    }

    private struct RunQueryRequest: Encodable { var structuredQuery: StructuredQuery }

    private struct StructuredQuery: Encodable {
        struct Collection: Encodable { var collectionId: String }
        struct FieldReference: Encodable { var fieldPath: String }
        struct Order: Encodable {
            var field: FieldReference
            var direction = "ASCENDING"
        }
        struct Filter: Encodable {
            struct FieldFilter: Encodable {
                var field: FieldReference
                var op: String
                var value: FirestoreValue
            }
            var fieldFilter: FieldFilter
        }
        struct Cursor: Encodable {
            var values: [FirestoreValue]
            var before: Bool
        }
        var from: [Collection]
        var where_: Filter?
        var orderBy: [Order]
        var startAt: Cursor?
        var limit: Int

        enum CodingKeys: String, CodingKey {
            case from, orderBy, startAt, limit
            case where_ = "where"
        }
    }

    private struct RunQueryRow: Decodable { var document: FirestoreDocument? }

    private struct ListResponse: Decodable {
        var documents: [FirestoreDocument]?
        var nextPageToken: String?
    }
}
