#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Accounts in the local database: passwords hashed with ``PasswordHasher``; a hash stored at a lower
/// cost than configured is replaced on the next successful login.
///
/// Every failed login costs the same work, `PasswordHasher.attemptIterations`: the higher of the configured
/// cost and the highest stored one. An unknown email burns that much; a wrong password verifies at its
/// hash's own cost and burns the rest. (Verifying at the stored cost alone let a hash stored at a low cost
/// answer in 1.4 ms while an unknown email took 281 ms at the default cost.)
struct LocalAccountProvider: AccountProvider {
    let store: AccountStore
    let hasher: PasswordHasher

    var kind: AccountProviderKind { .local }

    func register(email: String, password: String, profile: UserProfile, now: Date) async throws -> ProviderSignIn {
        // A cheap early answer; the UNIQUE constraint stays the authority when two registrations race.
        if try await store.user(email: email, provider: .local) != nil { throw MovieError.emailTaken }
        let hash = try await hasher.hash(password)
        let user = User(
            id: UUID().uuidString.lowercased(), email: email, profile: profile, createdAt: now, provider: .local)
        return ProviderSignIn(user: user, passwordHash: hash, credential: nil)
    }

    func signIn(email: String, password: String) async throws -> ProviderSignIn {
        let attemptIterations = hasher.attemptIterations(highestStored: try await store.highestLocalHashCost())
        guard let stored = try await store.user(email: email, provider: .local), let hash = stored.passwordHash else {
            // Same work as a wrong password, so response times do not tell which emails have accounts.
            try await hasher.burnVerification(password, iterations: attemptIterations)
            throw MovieError.invalidCredentials
        }
        try await check(password, against: hash, userID: stored.user.id, attemptIterations: attemptIterations)
        return ProviderSignIn(user: stored.user, passwordHash: nil, credential: nil)
    }

    func reauthenticate(_ user: User, password: String) async throws -> ProviderCredential? {
        guard let stored = try await store.user(id: user.id), let hash = stored.passwordHash else {
            try await hasher.burnVerification(password)
            throw MovieError.invalidCredentials
        }
        try await check(password, against: hash, userID: user.id)
        return nil
    }

    private func check(
        _ password: String, against hash: String, userID: String, attemptIterations: Int? = nil
    ) async throws {
        switch try await hasher.verify(password, against: hash, attemptIterations: attemptIterations) {
        case .invalid:
            throw MovieError.invalidCredentials
        case .valid(let needsRehash):
            guard needsRehash else { return }
            let upgraded = try await hasher.hash(password)
            try await store.replacePasswordHash(userID: userID, expected: hash, with: upgraded)
        }
    }

    func setPassword(_ newPassword: String, for user: User, reauthenticated: ProviderCredential?) async throws
        -> ProviderCredential?
    {
        let hash = try await hasher.hash(newPassword)
        try await store.setPasswordHash(userID: user.id, hash)
        return nil
    }

    func deleteAccount(_ user: User, reauthenticated: ProviderCredential?) async throws {}

    func profileWillChange(from old: UserProfile, to new: UserProfile, of user: User, session: AccountStore.Session)
        async throws {}

    func setCredential(_ credential: ProviderCredential?, for session: AccountStore.Session) {}
}
