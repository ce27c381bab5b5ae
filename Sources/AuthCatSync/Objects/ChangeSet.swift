import Foundation

/// The JSON payload of a batch or a snapshot (docs/FORMAT.md §5.4).
///
/// A batch holds the records a device changed since its previous batch; a
/// snapshot holds every record the device knows, and replaces the batches up
/// to `sequence`. `previous` chains a device's objects: in a batch it is the
/// hash of the device's batch `sequence - 1` ("" for the first), in a snapshot
/// the hash of batch `sequence` itself. Hashes are SHA-256 of the whole stored
/// object, lowercase hex.
struct ChangeSet: Codable, Equatable {
    static let batchFormat = "authcat-sync-batch"
    static let snapshotFormat = "authcat-sync-snapshot"
    static let currentVersion = 1

    var format: String
    var version: Int
    var vault: String
    var device: String
    /// The writer's name and its device id in its own vault, for history.
    var deviceName: String
    var vaultDevice: String
    var sequence: Int64
    var previous: String
    var createdAt: Int64
    var accounts: [AccountState]
    var preferences: [PreferenceState]

    enum CodingKeys: String, CodingKey {
        case format, version, vault, device, sequence, previous, accounts, preferences
        case deviceName = "device_name"
        case vaultDevice = "vault_device"
        case createdAt = "created_at"
    }

    var isSnapshot: Bool { format == Self.snapshotFormat }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Decodes and checks that the payload is what its name promised.
    static func decode(_ data: Data, snapshot: Bool, vault: String, device: String, sequence: Int64) throws -> ChangeSet {
        let set: ChangeSet
        do {
            set = try JSONDecoder().decode(ChangeSet.self, from: data)
        } catch {
            throw SyncObjectError.malformed("not a change set")
        }
        guard set.format == (snapshot ? snapshotFormat : batchFormat) else { throw SyncObjectError.wrongObject("format \(set.format)") }
        guard set.version == currentVersion else { throw SyncObjectError.malformed("unknown version \(set.version); upgrade authcat") }
        guard set.vault == vault, set.device == device, set.sequence == sequence else {
            throw SyncObjectError.wrongObject("vault, device or sequence differs from its name")
        }
        for account in set.accounts { try account.validate() }
        return set
    }
}
