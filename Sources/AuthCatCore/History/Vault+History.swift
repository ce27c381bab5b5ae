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
            return try entries(db, transactions: Row.fetchAll(db, sql: sql, arguments: arguments))
        }
    }

    /// History entries with a number above `number`, oldest first: what
    /// happened since a reader (the sync engine, say) last looked.
    public func history(after number: Int64) throws -> [HistoryEntry] {
        try translatingErrors { db in
            try entries(db, transactions: Row.fetchAll(
                db, sql: "SELECT * FROM historyTransaction WHERE number > ? ORDER BY number", arguments: [number]))
        }
    }

    /// The number of the newest transaction, 0 for an empty history.
    public func latestHistoryNumber() throws -> Int64 {
        try translatingErrors { db in try Int64.fetchOne(db, sql: "SELECT MAX(number) FROM historyTransaction") ?? 0 }
    }

    private func entries(_ db: Database, transactions: [Row]) throws -> [HistoryEntry] {
        guard let lowest = transactions.map({ $0["number"] as Int64 }).min(),
              let highest = transactions.map({ $0["number"] as Int64 }).max() else { return [] }
        let changeRows = try Row.fetchAll(db, sql: """
            SELECT * FROM historyChange WHERE transactionNumber BETWEEN ? AND ? ORDER BY id
            """, arguments: [lowest, highest])
        let changes = Dictionary(grouping: changeRows, by: { $0["transactionNumber"] as Int64 })
        return try transactions.map { row in
            let number: Int64 = row["number"]
            guard let author = HistoryAuthor.Kind(rawValue: row["author"]) else { throw VaultError.corrupt(location.databaseURL.path) }
            return HistoryEntry(
                number: number, timestamp: Date(unixMilliseconds: row["timestamp"]), author: author,
                device: DeviceReference(id: row["deviceID"], name: row["deviceName"]),
                changes: try (changes[number] ?? []).map(Self.change))
        }
    }

    private static func change(_ row: Row) throws -> HistoryChange {
        guard let entity = HistoryChange.Entity(rawValue: row["entity"]),
              let kind = HistoryChange.Kind(rawValue: row["kind"]) else { throw VaultError.storage("unknown history change") }
        let fieldsJSON: String = row["fields"]
        let fields = (try? JSONDecoder().decode([String].self, from: Data(fieldsJSON.utf8))) ?? []
        return HistoryChange(entity: entity, recordID: row["recordID"], kind: kind, fields: fields)
    }
}
