import AuthCatEssentials
import Foundation
import GRDB

extension Vault {
    /// History entries, newest first.
    ///
    /// - Parameters:
    ///   - recordID: only transactions that changed this account or preference.
    ///   - limit: at most this many entries.
    public func history(recordID: String? = nil, limit: Int? = nil) throws -> [HistoryEntry] {
        try translatingErrors { db in
            try entries(db, transactions: Self.newestTransactions(db, recordID: recordID, limit: limit))
        }
    }

    /// The rows of the newest transactions, newest first; with `recordID`
    /// only those that changed that record.
    private static func newestTransactions(_ db: Database, recordID: String?, limit: Int?) throws -> [Row] {
        var sql = "SELECT * FROM historyTransaction"
        var arguments: StatementArguments = []
        if let recordID {
            sql += " WHERE number IN (SELECT transactionNumber FROM historyChange WHERE recordID = ?)"
            arguments += [recordID]
        }
        sql += " ORDER BY number DESC"
        if let limit {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        return try Row.fetchAll(db, sql: sql, arguments: arguments)
    }

    /// History entries, newest first, each with at most `changesPerTransaction`
    /// of its changes (the first ones) and the number of those left out: a
    /// page of history to show. One import of 10,000 accounts is one
    /// transaction of 10,000 changes, and reading them all is what made
    /// `authcat history` slow after it.
    ///
    /// - Parameters:
    ///   - recordID: only transactions that changed this account or
    ///     preference, and only their changes of it.
    ///   - limit: at most this many entries.
    ///   - changesPerTransaction: at most this many changes of each; nil for all.
    public func historyExcerpts(
        recordID: String? = nil, limit: Int? = nil,
        changesPerTransaction: Int?
    ) throws -> [HistoryExcerpt] {
        try translatingErrors { db in
            let decoder = JSONDecoder()
            let changeFilter = "transactionNumber = ?" + (recordID == nil ? "" : " AND recordID = ?")
            return try Self.newestTransactions(db, recordID: recordID, limit: limit).map { row in
                let number: Int64 = row["number"]
                let filterArguments: StatementArguments = recordID.map { [number, $0] } ?? [number]
                var changeSQL = "SELECT * FROM historyChange WHERE \(changeFilter) ORDER BY id"
                var changeArguments = filterArguments
                if let changesPerTransaction {
                    changeSQL += " LIMIT ?"
                    changeArguments += [changesPerTransaction]
                }
                // Cached: one statement a transaction, with --limit 0 thousands of them.
                let changeRows = try Row.fetchAll(db.cachedStatement(sql: changeSQL), arguments: changeArguments)
                var omitted = 0
                if let changesPerTransaction, changeRows.count == changesPerTransaction {
                    let count = try db.cachedStatement(sql: "SELECT COUNT(*) FROM historyChange WHERE \(changeFilter)")
                    let total = try Int.fetchOne(count, arguments: filterArguments) ?? 0
                    omitted = total - changeRows.count
                }
                let entry = try self.entry(row, changes: changeRows.map { try Self.change($0, decoder: decoder) })
                return HistoryExcerpt(entry: entry, omittedChanges: omitted)
            }
        }
    }

    /// History entries with a number above `number`, oldest first: what
    /// happened since a reader (the sync engine, say) last looked.
    public func history(after number: Int64) throws -> [HistoryEntry] {
        try translatingErrors { db in
            try entries(
                db,
                transactions: Row.fetchAll(
                    db, sql: "SELECT * FROM historyTransaction WHERE number > ? ORDER BY number", arguments: [number]))
        }
    }

    /// The `issuer:name` labels of these accounts, deleted ones included, by
    /// lowercase id: what a page of history shows, without reading every account.
    public func accountLabels(ids: Set<String>) throws -> [String: String] {
        guard !ids.isEmpty else { return [:] }
        return try translatingErrors { db in try Self.reader(db).labels(ids: ids) }
    }

    /// The number of the newest transaction, 0 for an empty history.
    public func latestHistoryNumber() throws -> Int64 {
        try translatingErrors { db in try Int64.fetchOne(db, sql: "SELECT MAX(number) FROM historyTransaction") ?? 0 }
    }

    private func entries(_ db: Database, transactions: [Row]) throws -> [HistoryEntry] {
        guard let lowest = transactions.map({ $0["number"] as Int64 }).min(),
            let highest = transactions.map({ $0["number"] as Int64 }).max()
        else { return [] }
        let changeRows = try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM historyChange WHERE transactionNumber BETWEEN ? AND ? ORDER BY id
                """, arguments: [lowest, highest])
        let decoder = JSONDecoder()
        let changes = Dictionary(grouping: changeRows, by: { $0["transactionNumber"] as Int64 })
        return try transactions.map { row in
            try entry(
                row, changes: (changes[row["number"] as Int64] ?? []).map { try Self.change($0, decoder: decoder) })
        }
    }

    /// The entry of a `historyTransaction` row with these changes.
    private func entry(_ row: Row, changes: [HistoryChange]) throws -> HistoryEntry {
        guard let author = HistoryAuthor.Kind(rawValue: row["author"]) else {
            throw VaultStoreError.corrupt(location.databaseURL.path)
        }
        return HistoryEntry(
            number: row["number"], timestamp: Date(unixMilliseconds: row["timestamp"]), author: author,
            device: DeviceReference(id: row["deviceID"], name: row["deviceName"]), source: row["source"],
            changes: changes)
    }

    private static func change(_ row: Row, decoder: JSONDecoder) throws -> HistoryChange {
        guard let entity = HistoryChange.Entity(rawValue: row["entity"]),
            let kind = HistoryChange.Kind(rawValue: row["kind"])
        else { throw VaultError.storage("unknown history change") }
        let fieldsJSON: String = row["fields"]
        // Most changes (inserts, deletes) list no fields: skip the decoder for them.
        let fields = fieldsJSON == "[]" ? [] : (try? decoder.decode([String].self, from: Data(fieldsJSON.utf8))) ?? []
        return HistoryChange(
            entity: entity, recordID: row["recordID"], kind: kind, fields: fields, label: row["label"])
    }
}
