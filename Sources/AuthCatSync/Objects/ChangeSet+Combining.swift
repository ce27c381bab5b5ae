import Foundation

extension ChangeSet {
    /// The records of several change sets merged as the engine merges them,
    /// field by field, the newest clock winning; HOTP counters take the
    /// maximum. Applying the result gives the same records as applying the
    /// sets one by one, without the states in between.
    static func combining(_ sets: [ChangeSet], as template: ChangeSet) -> ChangeSet {
        var accounts: [String: AccountState] = [:]
        var preferences: [String: PreferenceState] = [:]
        for set in sets {
            for account in set.accounts {
                accounts[account.id] = accounts[account.id].map { $0.merged(with: account) } ?? account
            }
            for preference in set.preferences {
                if let known = preferences[preference.key], known.clock >= preference.clock { continue }
                preferences[preference.key] = preference
            }
        }
        var combined = template
        combined.accounts = accounts.keys.sorted().compactMap { accounts[$0] }
        combined.preferences = preferences.keys.sorted().compactMap { preferences[$0] }
        return combined
    }
}

extension AccountState {
    /// This account merged with another state of it: per field, the newer clock wins.
    ///
    /// The result starts from the state whose secret is newer, so that what
    /// has no clock of its own and belongs to the secret travels with it.
    func merged(with other: AccountState) -> AccountState {
        func newer<Value>(_ mine: Stamped<Value>, _ theirs: Stamped<Value>) -> Stamped<Value> {
            theirs.clock > mine.clock ? theirs : mine
        }
        var result = other.secret.clock > secret.clock ? other : self
        result.issuer = newer(issuer, other.issuer)
        result.name = newer(name, other.name)
        result.otp = newer(otp, other.otp)
        result.secret = newer(secret, other.secret)
        result.tags = newer(tags, other.tags)
        result.note = newer(note, other.note)
        result.deleted = newer(deleted, other.deleted)
        result.counter = max(counter, other.counter)
        result.createdAt = min(createdAt, other.createdAt)
        return result
    }
}
