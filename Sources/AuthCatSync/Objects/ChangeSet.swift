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
    /// When the writer joined the remote vault (its own word, like its name);
    /// nil when it does not say (an authcat from before, or a device whose
    /// state predates the record). Not written when nil.
    var joinedAt: Int64? = nil
    var accounts: [AccountState]
    var preferences: [PreferenceState]

    enum CodingKeys: String, CodingKey {
        case format, version, vault, device, sequence, previous, accounts, preferences
        case pinAccounts = "pin_accounts"
        case deviceName = "device_name"
        case vaultDevice = "vault_device"
        case createdAt = "created_at"
        case joinedAt = "joined_at"
    }

    init(
        format: String, version: Int, vault: String, device: String, deviceName: String, vaultDevice: String,
        sequence: Int64, previous: String, createdAt: Int64, accounts: [AccountState], preferences: [PreferenceState]
    ) {
        self.format = format
        self.version = version
        self.vault = vault
        self.device = device
        self.deviceName = deviceName
        self.vaultDevice = vaultDevice
        self.sequence = sequence
        self.previous = previous
        self.createdAt = createdAt
        self.accounts = accounts
        self.preferences = preferences
    }

    /// Yandex and mOTP accounts travel in `pin_accounts`, the others in
    /// `accounts`: a device older than these kinds ignores the member it does
    /// not know, so it keeps syncing every other account instead of refusing
    /// the whole object over an account type it cannot decode.
    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        vault = try container.decode(String.self, forKey: .vault)
        device = try container.decode(String.self, forKey: .device)
        deviceName = try container.decode(String.self, forKey: .deviceName)
        vaultDevice = try container.decode(String.self, forKey: .vaultDevice)
        sequence = try container.decode(Int64.self, forKey: .sequence)
        previous = try container.decode(String.self, forKey: .previous)
        createdAt = try container.decode(Int64.self, forKey: .createdAt)
        // Only shown, never merged: a join time that is not a number, or after the object was made, is
        // shown as unknown and the object kept.
        let created = createdAt
        joinedAt = ((try? container.decodeIfPresent(Int64.self, forKey: .joinedAt)) ?? nil).flatMap {
            (1...max(1, created)).contains($0) ? $0 : nil
        }
        let pinAccounts = try container.decodeIfPresent([AccountState].self, forKey: .pinAccounts) ?? []
        // Writers list accounts by id; the two lists are merged back into that order.
        accounts = try container.decode([AccountState].self, forKey: .accounts) + pinAccounts
        if !pinAccounts.isEmpty { accounts.sort { $0.id < $1.id } }
        preferences = try container.decode([PreferenceState].self, forKey: .preferences)
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(version, forKey: .version)
        try container.encode(vault, forKey: .vault)
        try container.encode(device, forKey: .device)
        try container.encode(deviceName, forKey: .deviceName)
        try container.encode(vaultDevice, forKey: .vaultDevice)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(previous, forKey: .previous)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(joinedAt, forKey: .joinedAt)
        try container.encode(accounts.filter(\.isReadableByOlderDevices), forKey: .accounts)
        let pinAccounts = accounts.filter { !$0.isReadableByOlderDevices }
        if !pinAccounts.isEmpty { try container.encode(pinAccounts, forKey: .pinAccounts) }
        try container.encode(preferences, forKey: .preferences)
    }

    var isSnapshot: Bool { format == Self.snapshotFormat }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Decodes and checks that the payload is what its name promised.
    static func decode(_ data: Data, snapshot: Bool, vault: String, device: String, sequence: Int64) throws -> ChangeSet
    {
        let set: ChangeSet
        do {
            set = try JSONDecoder().decode(ChangeSet.self, from: data)
        } catch {
            throw SyncObjectError.malformed("not a change set")
        }
        guard set.format == (snapshot ? snapshotFormat : batchFormat) else {
            throw SyncObjectError.wrongObject("format \(set.format)")
        }
        guard set.version == currentVersion else {
            throw SyncObjectError.malformed("unknown version \(set.version); upgrade authcat")
        }
        guard set.vault == vault, set.device == device, set.sequence == sequence else {
            throw SyncObjectError.wrongObject("vault, device or sequence differs from its name")
        }
        for account in set.accounts { try account.validate() }
        return set
    }

    /// Refuses the whole object when one of its clocks is more than a day
    /// ahead of this device's clock, or its logical part is past the bound
    /// (`HybridLogicalClock.isAcceptable`): one such clock, once received,
    /// would push every later change on this device out of range.
    func checkClocks(physicalNow: Int64) throws {
        let clocks = accounts.flatMap { $0.clocks.values } + preferences.map(\.clock)
        for clock in clocks where !HybridLogicalClock.isAcceptable(clock, physicalNow: physicalNow) {
            if clock.logical > HybridLogicalClock.maximumLogical {
                throw SyncObjectError.malformed(
                    "a clock's logical part \(clock.logical) is past the bound \(HybridLogicalClock.maximumLogical)")
            }
            throw SyncObjectError.clockAhead(wall: clock.wall)
        }
    }
}

/// One synced preference as a batch or snapshot carries it; a nil value
/// means the preference was removed (a tombstone).
struct PreferenceState: Codable, Equatable {
    var key: String
    var value: String?
    var clock: HybridTimestamp
}

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
