import Foundation
import GRDB

extension SyncStore {
    /// A row of `sync.sqlite`'s `rejected` table: a remote object that failed a
    /// check, remembered so that it is not downloaded and reported on every sync.
    ///
    /// Keyed by name and version (`RemoteObject.version`, else the SHA-256 of
    /// the bytes read): an object written again under the same name, even with
    /// the same size, is read again. A row goes when its object leaves the remote.
    struct RejectedRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "rejected"

        var name: String
        var size: Int
        var kind: String
        var detail: String
        /// When it was first rejected, in Unix milliseconds.
        var firstSeen: Int64
        /// The listed version, or `sha256:<hex>` of the bytes when the remote lists none.
        var version: String

        /// The rejections `store` remembers, by name.
        static func byName(in store: SyncStore) throws -> [String: SyncStore.RejectedRecord] {
            let records = try store.read { try fetchAll($0) }
            return Dictionary(records.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }
}

extension SyncStore {
    /// A row of `sync.sqlite`'s `issue` table: a problem with a device's chain
    /// (rollback, gap, or batches waiting behind a rejected object) that the
    /// latest sync found. Each sync replaces the table with what it finds, so a
    /// row stays exactly as long as the problem does.
    struct IssueRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "issue"

        var kind: String
        /// The device id on the remote.
        var subject: String
        var detail: String
        /// When a sync first found it, in Unix milliseconds.
        var firstSeen: Int64
    }
}

extension SyncStore {
    /// How far this device has read another device's chain of batches.
    struct PeerRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "peer"

        /// The device's id on the remote.
        var deviceID: String
        /// The device's id in its own vault, as history names it.
        var vaultDeviceID: String
        var name: String
        /// The newest batch sequence number imported (directly or through a snapshot).
        var sequence: Int64
        /// The hash of that batch, to check the next one continues the chain.
        var chainHash: String
        /// The highest sequence number of its objects that opened here: a
        /// listing whose newest is older is a rollback. Never taken from a
        /// listing or a name (an object that did not open proves nothing).
        var seenSequence: Int64
        /// When this device last read one of its objects, in Unix milliseconds.
        var lastSeen: Int64?
        /// When this device first read one of its objects; nil before it was kept.
        var firstSeen: Int64? = nil
        /// When it joined the remote vault, as its newest object read says; nil
        /// when unknown (written by an authcat from before, or before it was kept).
        var joinedAt: Int64? = nil
    }
}

extension SyncStore {
    /// A row of `sync.sqlite`'s `revocation` table: a device that a rotation
    /// record this device proved (`RotationChain`) names among the revoked.
    /// `sync devices` shows it revoked; it never receives a new key.
    struct RevocationRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "revocation"

        /// The revoked device's id on the remote.
        var deviceID: String
        /// The epoch of the record that revoked it.
        var epoch: Int64
        /// The SHA-256 (hex) of that record's stored bytes.
        var record: String
    }
}

extension SyncStore {
    /// Whether a proved rotation revoked `deviceID`.
    func isRevoked(_ deviceID: String) throws -> Bool {
        try read { db in try RevocationRecord.filter(Column("deviceID") == deviceID).fetchCount(db) > 0 }
    }

    /// A row of `sync.sqlite`'s `certifiedDevice` table: a device whose
    /// certificate (`key-<device>`, FORMAT.md §5.9) the pinned authority
    /// signed, as a sync read it. It holds the master key and receives the
    /// next rotation's, so it is a device even before its first batch. Rows
    /// of the devices a rotation gives the key to or revokes stay (a revoked
    /// device is still listed, revoked); the others go when it is adopted,
    /// since only the new authority's certificates count from then on.
    struct CertifiedDeviceRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "certifiedDevice"

        /// The device's id on the remote.
        var deviceID: String
        /// When this device first read its certificate, in Unix milliseconds.
        var firstSeen: Int64
        /// The X25519 key that certificate certified; nil for rows read before it was kept.
        var boxPublicKey: Data?
    }

    /// Each certified device's box key as first read (`CertifiedDeviceRecord`).
    func pinnedBoxKeys() throws -> [String: Data] {
        try read { db in
            try CertifiedDeviceRecord.fetchAll(db).reduce(into: [:]) { keys, row in
                if let key = row.boxPublicKey { keys[row.deviceID] = key }
            }
        }
    }
}
