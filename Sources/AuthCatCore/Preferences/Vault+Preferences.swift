import AuthCatEssentials
import GRDB

extension Vault {
    /// The synced preferences: a small key-value store that travels with the vault.
    public func preferences() throws -> [String: String] {
        try translatingErrors { db in try Self.preferences(db) }
    }

    static func preferences(_ db: Database) throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM preference").map {
                ($0["key"] as String, $0["value"] as String)
            })
    }

    /// Local settings of this device only; never synced, not in history.
    public func settings() throws -> [String: String] {
        try translatingErrors { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM setting").map {
                    ($0["key"] as String, $0["value"] as String)
                })
        }
    }

    /// Sets (or, with nil, removes) a local setting.
    public func setSetting(_ key: String, to value: String?) throws {
        try PreferenceQuota.checkKey(key)
        try Self.translatingErrors(location) {
            try database.write { db in
                if let value {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
                } else {
                    try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
                }
            }
        }
    }
}

extension VaultWriter {
    /// Sets a synced preference; throws `PreferenceError` and changes nothing
    /// if the store would go over quota.
    public func setPreference(_ key: String, to value: String) throws {
        var all = try Vault.preferences(db)
        let previous = all[key]
        guard previous != value else { return }
        all[key] = value
        try PreferenceQuota.check(all)
        try db.execute(
            sql: "INSERT OR REPLACE INTO preference (key, value, updatedAt) VALUES (?, ?, ?)",
            arguments: [key, value, now.unixMilliseconds])
        try recordHistory(
            HistoryChange(
                entity: .preference, recordID: key, kind: previous == nil ? .insert : .update, fields: ["value"]))
    }

    /// Removes a synced preference; nothing happens if it is not set.
    /// - Returns: whether it was set.
    @discardableResult
    public func removePreference(_ key: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM preference WHERE key = ?", arguments: [key])
        guard db.changesCount > 0 else { return false }
        try recordHistory(HistoryChange(entity: .preference, recordID: key, kind: .delete, fields: []))
        return true
    }
}
