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
