import Foundation
import GRDB

extension SyncStore {
    /// The field clocks of one synced record (an account or a preference), and
    /// whether it has local changes not yet exported.
    struct ClockRecord: FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "record"

        enum Entity: String, Codable {
            case account, preference
        }

        var entity: Entity
        var recordID: String
        /// Field name to the timestamp of the change that set its current value.
        var clocks: [String: HybridTimestamp]
        var pending: Bool
        /// The fields this device's own edits changed since the record was last
        /// exported: an incoming change that wins over one of them replaces an
        /// offline edit, which the sync reports.
        var unexported: Set<String>

        init(
            entity: Entity, recordID: String, clocks: [String: HybridTimestamp], pending: Bool,
            unexported: Set<String> = []
        ) {
            self.entity = entity
            self.recordID = recordID
            self.clocks = clocks
            self.pending = pending
            self.unexported = unexported
        }

        init(row: Row) throws {
            guard let entity = Entity(rawValue: row["entity"]) else {
                throw SyncStoreError.malformed("unknown record entity")
            }
            self.entity = entity
            recordID = row["recordID"]
            let json: String = row["clocks"]
            clocks = try JSONDecoder().decode([String: HybridTimestamp].self, from: Data(json.utf8))
            pending = row["pending"]
            let fields: String = row["unexported"]
            unexported = try JSONDecoder().decode(Set<String>.self, from: Data(fields.utf8))
        }

        func encode(to container: inout PersistenceContainer) throws {
            container["entity"] = entity.rawValue
            container["recordID"] = recordID
            container["clocks"] = String(decoding: try JSONEncoder().encode(clocks), as: UTF8.self)
            container["pending"] = pending
            container["unexported"] = String(decoding: try JSONEncoder().encode(unexported.sorted()), as: UTF8.self)
        }
    }
}

extension SyncStore.ClockRecord {
    /// Which record a clock record belongs to.
    struct Key: Hashable {
        var entity: Entity
        var recordID: String
    }

    var key: Key { Key(entity: entity, recordID: recordID) }
}
