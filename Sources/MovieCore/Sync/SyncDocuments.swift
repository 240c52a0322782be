#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The documents sync writes and reads (the data model, also in `firebase/README.md`):
///
/// - `users/{uid}/favorites/{movieId}`: `movieId` (integer, the document id), `deleted` (boolean, a
///   tombstone when true), `changedAt` (timestamp: when the user made the change, by their device's
///   clock), `changeId` (string: a random id of that change), `syncedAt` (timestamp: set by Firestore
///   to the commit's time, the pull cursor) and, unless deleted, `addedAt` (timestamp) and `movie` (string:
///   the movie's summary as JSON, as the favorites list shows it offline; at most 16 KiB).
/// - `users/{uid}`: `bio`, `phone`, `birthDate` (string or null), `changedAt`, `changeId`, `syncedAt`.
///
/// Remote documents are checked before anything of them is used: a document that does not have this
/// shape is skipped (and counted in the log), never applied.
enum SyncDocuments {
    static let serverTimeField = "syncedAt"
    static let favoritesCollection = "favorites"
    /// The largest `movie` JSON accepted (the security rules say the same).
    static let maxMovieJSONBytes = 16 * 1024
    static let maxProfileFieldBytes = 4 * 1024

    static func userPath(_ uid: String) -> String { "users/\(uid)" }
    static func favoritePath(_ uid: String, _ movieID: Int) -> String { "users/\(uid)/favorites/\(movieID)" }

    /// The write for a pending change.
    static func write(
        _ change: SyncStore.PendingChange, uid: String, client: FirestoreClient
    ) -> FirestoreClient.Write {
        var fields: [String: FirestoreValue] = [
            "changedAt": .timestamp(FirestoreTime.string(milliseconds: change.version.changedAt)),
            "changeId": .string(change.version.changeID),
        ]
        switch change.kind {
        case .favorite:
            fields["movieId"] = .integer(Int64(change.movieID))
            fields["deleted"] = .boolean(change.version.deleted)
            if !change.version.deleted, let favorite = change.favorite {
                let addedAt = FirestoreTime.microseconds(favorite.addedAt) ?? change.version.changedAt * 1000
                fields["addedAt"] = .timestamp(FirestoreTime.string(microseconds: addedAt))
                fields["movie"] = .string(favorite.movieJSON)
            }
            return .update(name: client.name(favoritePath(uid, change.movieID)), fields: fields,
                           serverTimeField: serverTimeField)
        case .profile:
            let profile = change.profile ?? SyncedProfile()
            fields["bio"] = profile.bio.map(FirestoreValue.string) ?? .null
            fields["phone"] = profile.phone.map(FirestoreValue.string) ?? .null
            fields["birthDate"] = profile.birthDate.map(FirestoreValue.string) ?? .null
            return .update(name: client.name(userPath(uid)), fields: fields, serverTimeField: serverTimeField)
        }
    }

    /// A favorite document, or nil when it does not have the documented shape.
    static func favorite(_ document: FirestoreDocument) -> RemoteFavorite? {
        guard let name = document.name, let fields = document.fields,
              let movieID = fields["movieId"]?.int64, movieID > 0, movieID <= Int64(Int32.max),
              name.hasSuffix("/favorites/\(movieID)"),
              let deleted = fields["deleted"]?.bool, let version = version(fields, deleted: deleted),
              let syncedAt = fields[serverTimeField]?.microseconds
        else { return nil }
        var remote = RemoteFavorite(
            movieID: Int(movieID), version: version, addedAt: nil, movieJSON: nil, syncedAt: syncedAt, name: name)
        if !deleted {
            guard let addedAt = fields["addedAt"]?.microseconds, let json = fields["movie"]?.string,
                  json.utf8.count <= maxMovieJSONBytes,
                  let movie = try? JSONDecoder().decode(MovieSummary.self, from: Data(json.utf8)),
                  movie.id == remote.movieID
            else { return nil }
            remote.addedAt = String(FirestoreTime.string(microseconds: addedAt).prefix(23)) + "Z"
            remote.movieJSON = json
        }
        return remote
    }

    /// The profile document, or nil when it does not have the documented shape.
    static func profile(_ document: FirestoreDocument) -> RemoteProfile? {
        guard let fields = document.fields, let version = version(fields, deleted: false) else { return nil }
        func text(_ key: String) -> String?? {
            switch fields[key] {
            case .none, .some(.null): return .some(nil)
            case .some(.string(let value)) where value.utf8.count <= maxProfileFieldBytes: return .some(value)
            default: return nil
            }
        }
        guard let bio = text("bio"), let phone = text("phone"), let birthDate = text("birthDate") else { return nil }
        return RemoteProfile(profile: SyncedProfile(bio: bio, phone: phone, birthDate: birthDate), version: version)
    }

    private static func version(_ fields: [String: FirestoreValue], deleted: Bool) -> SyncVersion? {
        guard let changedAt = fields["changedAt"]?.microseconds, let changeID = fields["changeId"]?.string,
              (1...64).contains(changeID.utf8.count)
        else { return nil }
        return SyncVersion(changedAt: changedAt / 1000, deleted: deleted, changeID: changeID)
    }
}
