import AuthCatCore
import AuthCatEssentials

extension ImportSession {
    /// Takes an incoming preference if it is newer. A value that would break
    /// `PreferenceQuota` is refused here (nothing changes) and reported.
    func apply(_ incoming: PreferenceState) throws {
        var record = try clockRecord(.preference, incoming.key)
        if let local = record.clocks["value"], incoming.clock <= local { return }
        if preferences[incoming.key] != incoming.value {
            do {
                if let value = incoming.value {
                    try writer.setPreference(incoming.key, to: value)
                } else {
                    try writer.removePreference(incoming.key)
                }
            } catch is PreferenceError {
                preferenceChanges.append(SyncPreferenceChange(key: incoming.key, reason: .quotaViolation))
                return
            }
            preferences[incoming.key] = incoming.value
            preferenceChanges.append(SyncPreferenceChange(key: incoming.key, reason: preferenceReason))
            changedRecords += 1
        }
        record.clocks["value"] = incoming.clock
        save(record)
    }
}
