import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// Three devices with separate homes sharing one remote: random adds, edits,
/// renames, deletes, restores and HOTP uses on each, synced (sometimes
/// compacted) in random order with random interruptions. Afterwards every
/// device must hold the same accounts, none may be lost, no device may ever
/// have handed out an HOTP counter value it had already seen used, no user's
/// rename may be lost to a label clash settled after it, and a device joining
/// after a compaction must see the same accounts.
final class SyncSimulation {
    static let issuers = ["GitHub", "Mail", "Bank"]
    static let names = ["alice", "bob", "carol"]

    private var random: SeededRandom
    let seed: UInt64
    let devices: [SyncTestDevice]
    let remotes: [FaultyRemote]
    /// Every account id ever created on any device.
    private var created: Set<UUID> = []
    /// Per device: HOTP counter values it handed out itself.
    private var used: [[UUID: Set<UInt64>]]
    /// Per device: counter values it has seen used (its own and synced ones).
    private var seen: [[UUID: Set<UInt64>]]
    /// Per device: its own uses as of its last successful sync.
    private var published: [[UUID: Set<UInt64>]]
    /// Per account: the newest user rename by its clock, and the name it set.
    private var latestRenames: [UUID: (clock: HybridTimestamp, name: String)] = [:]
    private(set) var syncs = 0
    private(set) var interruptedSyncs = 0

    init(seed: UInt64, folder: URL, remote: any Remote) throws {
        self.seed = seed
        random = SeededRandom(seed: seed)
        let remotes = (0..<3).map { _ in FaultyRemote(remote) }
        self.remotes = remotes
        // Skewed clocks: the hybrid logical clock must cope with devices that disagree.
        devices = try (0..<3).map { index in
            try SyncTestDevice(
                "device\(index)", in: folder, remote: remotes[index],
                clock: ManualClock(Date(timeIntervalSince1970: 1_700_000_000 + Double(index * 97))))
        }
        used = Array(repeating: [:], count: 3)
        seen = used
        published = used
        // Seeded device ids too: they break ties between clocks and order the
        // devices' streams, so with random ones a seed would not replay exactly.
        for device in devices { device.syncDeviceID = randomDeviceID() }
    }

    /// Sets up sync (device 0 creates, 1 joins with the passphrase, 2 with the
    /// recovery key, each with local accounts already present), runs `steps`
    /// random operations, then syncs until quiet and checks the invariants.
    func run(steps: Int) async throws {
        for device in devices.indices {
            for _ in 0..<2 { try randomAdd(on: device) }
        }
        let creation = try await devices[0].enable()
        try await sync(0, interruptible: false)
        try await devices[1].enable()
        try await devices[2].enable(secret: .recoveryKey(SecretBytes(utf8: try XCTUnwrap(creation.recoveryKey))))
        for step in 0..<steps {
            try await randomStep(step)
        }
        try await settle()
        try check()
        try await checkJoinAfterCompaction()
        XCTAssertGreaterThan(used.map(\.count).reduce(0, +), 0, "seed \(seed): no HOTP code was used")
    }

    private func randomStep(_ step: Int) async throws {
        let device = Int.random(in: 0..<3, using: &random)
        devices[device].clock.advance(by: Double.random(in: 0.001...40, using: &random))
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<14: try randomAdd(on: device)
        case 14..<28: try randomEdit(on: device)
        case 28..<38: try randomRename(on: device)
        case 38..<46: try randomDelete(on: device)
        case 46..<52: try randomRestore(on: device)
        case 52..<72: try useHOTP(on: device, step: step)
        default: try await sync(device, interruptible: true)
        }
    }

    // MARK: - Operations

    private func randomAdd(on device: Int) throws {
        var issuer = random.pick(Self.issuers) ?? ""
        var name = random.pick(Self.names) ?? "x"
        var kind: OTPKind = random.chance(0.5) ? .hotp : .totp
        var secret = (0..<10).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Now and then the user adds on this device an account another device already has.
        let elsewhere = try devices.indices.filter { $0 != device }.flatMap { try devices[$0].vault.accounts() }
        if random.chance(0.15), let copy = random.pick(elsewhere),
            let owner = devices.first(where: { (try? $0.vault.account(id: copy.id)) != nil })
        {
            issuer = copy.issuer
            name = copy.name
            kind = copy.otp.kind
            secret = Array(try owner.vault.secret(for: copy.id).unprotectedData())
        }
        do {
            let account = try devices[device].vault.write(author: .cli) { writer in
                try writer.insert(
                    AccountDraft(
                        issuer: issuer, name: name, otp: OTPParameters(kind: kind), secret: SecretBytes(secret)),
                    id: UUID(uuid: randomUUID()))
            }
            created.insert(account.id)
        } catch VaultStoreError.duplicate {
            // The label is taken on this device: a user would pick another name.
        }
    }

    private func randomEdit(on device: Int) throws {
        guard let account = try random.pick(devices[device].vault.accounts()) else { return }
        var edit = AccountEdit()
        switch Int.random(in: 0..<3, using: &random) {
        case 0: edit.note = "note \(Int.random(in: 0..<1000, using: &random))"
        case 1:
            edit.tags = Array(
                ["work", "home", "old"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
        default:
            guard account.otp.kind == .totp else { return }
            var otp = account.otp
            otp.digits = random.chance(0.5) ? 6 : 8
            edit.otp = otp
        }
        try devices[device].edit(account.id, edit)
    }

    private func randomRename(on device: Int) throws {
        guard let account = try random.pick(devices[device].vault.accounts()) else { return }
        let name = random.pick(Self.names) ?? "x"
        do {
            try devices[device].edit(account.id, AccountEdit(name: name))
        } catch VaultStoreError.duplicate { return }
        try noteRename(of: account.id, to: name, on: device)
    }

    /// Remembers the clock of a user's rename. Stamping now gives the clock the
    /// next sync would give it: stamping follows the history in order either way.
    private func noteRename(of id: UUID, to name: String, on device: Int) throws {
        let engine = try XCTUnwrap(try devices[device].engine())
        try engine.resources.localStamp.stamp()
        let record = try engine.store.read {
            try SyncStore.ClockRecord.fetchOne($0, key: ["entity": "account", "recordID": id.vaultString])
        }
        guard let clock = record?.clocks["name"], try devices[device].vault.account(id: id)?.name == name else {
            return
        }
        if latestRenames[id].map({ $0.clock < clock }) ?? true { latestRenames[id] = (clock, name) }
    }

    private func randomDelete(on device: Int) throws {
        guard let account = try random.pick(devices[device].vault.accounts()) else { return }
        try devices[device].delete(account.id)
    }

    private func randomRestore(on device: Int) throws {
        let deleted = try devices[device].vault.accounts(includingDeleted: true).filter { $0.deletedAt != nil }
        guard let account = random.pick(deleted) else { return }
        do {
            try devices[device].restore(account.id)
        } catch VaultStoreError.duplicate {}
    }

    private func useHOTP(on device: Int, step: Int) throws {
        let hotp = try devices[device].vault.accounts().filter { $0.otp.kind == .hotp }
        guard let account = random.pick(hotp) else { return }
        let generated = try devices[device].vault.generateCode(for: account, at: devices[device].clock.now())
        let counter = try XCTUnwrap(generated.counter)
        XCTAssertFalse(
            seen[device][account.id, default: []].contains(counter),
            "seed \(seed) step \(step): device\(device) handed out HOTP counter \(counter) of \(account.label), already seen used"
        )
        used[device][account.id, default: []].insert(counter)
        seen[device][account.id, default: []].insert(counter)
    }

    /// Syncs one device, sometimes cutting the remote off after a few requests.
    private func sync(_ device: Int, interruptible: Bool) async throws {
        let uses = used[device]
        let others = (0..<3).filter { $0 != device }.map { published[$0] }
        let interrupted = interruptible && random.chance(0.3)
        if interrupted { remotes[device].fail(after: Int.random(in: 0...5, using: &random)) }
        defer { remotes[device].heal() }
        syncs += 1
        let compacting = random.chance(0.15)
        do {
            let report = try await compacting ? devices[device].compact() : devices[device].sync()
            XCTAssertEqual(report.issues, [], "seed \(seed): device\(device) found integrity issues")
        } catch let error as SyncError where interrupted && error.category == .unreachable {
            interruptedSyncs += 1
            return
        }
        // A whole sync imported every use the others had published before it.
        for other in others {
            for (id, counters) in other { seen[device][id, default: []].formUnion(counters) }
        }
        published[device] = uses
    }

    /// Syncs every device, round after round, with no faults, until nothing moves.
    private func settle() async throws {
        for _ in 0..<4 {
            for device in devices.indices { try await sync(device, interruptible: false) }
        }
    }

    // MARK: - Checks

    private func check() throws {
        let reference = try devices[0].fingerprint()
        XCTAssertFalse(reference.isEmpty, "seed \(seed): the simulation should leave some accounts")
        let referenceCodes = try codes(devices[0])
        for (index, device) in devices.enumerated() {
            XCTAssertEqual(try device.fingerprint(), reference, "seed \(seed): device\(index) differs from device0")
            XCTAssertEqual(try codes(device), referenceCodes, "seed \(seed): device\(index) shows other codes")
            let all = Set(try device.vault.accounts(includingDeleted: true).map(\.id))
            XCTAssertTrue(
                created.isSubset(of: all),
                "seed \(seed): device\(index) lost \(created.subtracting(all).count) accounts")
            XCTAssertEqual(
                try device.engine()?.pendingLocalChanges(), 0, "seed \(seed): device\(index) has unexported changes")
            let deleted = Set(
                try device.vault.accounts(includingDeleted: true).filter { $0.deletedAt != nil }.map(\.id))
            let referenceDeleted = Set(
                try devices[0].vault.accounts(includingDeleted: true).filter { $0.deletedAt != nil }.map(\.id))
            XCTAssertEqual(deleted, referenceDeleted, "seed \(seed): device\(index) has other deleted accounts")
        }
        try checkCountersAdvanced()
        try checkNoRenameLostToAClash(on: devices[0])
        if ProcessInfo.processInfo.environment["SIMDEBUG"] != nil { try debugDump() }
    }

    private func debugDump() throws {
        let reference = Set(try devices[0].fingerprint())
        var ids = Set<String>()
        for device in devices {
            for line in Set(try device.fingerprint()).symmetricDifference(reference) {
                ids.insert(String(line.prefix(36)))
            }
        }
        for id in ids {
            print("=== \(id)")
            for device in devices {
                let store = try SyncStore.openIfPresent(in: device.vault.location)!
                let record = try store.read {
                    try SyncStore.ClockRecord.fetchOne($0, key: ["entity": "account", "recordID": id])
                }
                let account = try device.vault.account(id: UUID(uuidString: id)!)
                print(
                    "\(device.name): \(account.map { "\($0.label) deleted=\($0.deletedAt != nil) note=\($0.note)" } ?? "nil") pending=\(record?.pending ?? false)"
                )
                for (field, clock) in (record?.clocks ?? [:]).sorted(by: { $0.key < $1.key }) {
                    print("   \(field) \(clock)")
                }
                for entry in try device.vault.history(recordID: id).reversed() {
                    print(
                        "   h\(entry.number) \(entry.author) \(entry.device.name) t=\(entry.timestamp.unixMilliseconds) \(entry.changes.filter { $0.recordID == id }.map { "\($0.kind.rawValue)\($0.fields)" })"
                    )
                }
            }
        }
    }

    /// A device compacts, a new device joins (reading its snapshot and the
    /// others' batches and snapshots), and all four converge, with no user
    /// rename lost to a clash the joiner meets while it reads.
    private func checkJoinAfterCompaction() async throws {
        let compacting = Int.random(in: 0..<3, using: &random)
        let report = try await devices[compacting].compact()
        XCTAssertEqual(report.issues, [], "seed \(seed): device\(compacting) found integrity issues while compacting")
        let joiner = try SyncTestDevice(
            "joiner", in: devices[0].home.deletingLastPathComponent(), remote: remotes[0].base,
            clock: ManualClock(Date(timeIntervalSince1970: 1_700_000_000)))
        joiner.syncDeviceID = randomDeviceID()
        try await joiner.enable()
        // The joiner reads the whole remote before settling any clash: one sync, and it matches.
        let joined = try await joiner.sync()
        XCTAssertEqual(joined.issues, [], "seed \(seed): the joiner found integrity issues")
        for device in devices {
            XCTAssertEqual(
                try joiner.fingerprint(), try device.fingerprint(),
                "seed \(seed): the joiner needs a second round to match \(device.name)")
        }
        for _ in 0..<3 {
            for device in devices + [joiner] {
                let report = try await device.sync()
                XCTAssertEqual(
                    report.issues, [], "seed \(seed): \(device.name) found integrity issues after the compaction")
            }
        }
        for device in devices {
            XCTAssertEqual(
                try joiner.fingerprint(), try device.fingerprint(),
                "seed \(seed): the joiner differs from \(device.name)")
        }
        try checkNoRenameLostToAClash(on: joiner)
    }

    /// Every account is named by its newest user rename, or by a clash
    /// settlement of that name (` (<hex>)` appended; the simulation's own
    /// names have no parenthesis): a settlement may not beat a rename newer
    /// than the name it settled.
    private func checkNoRenameLostToAClash(on device: SyncTestDevice) throws {
        for account in try device.vault.accounts(includingDeleted: true) {
            guard let rename = latestRenames[account.id] else { continue }
            let base = account.name.components(separatedBy: " (").first ?? account.name
            XCTAssertEqual(
                base, rename.name,
                "seed \(seed): the rename of \(account.id) to \(rename.name) at \(rename.clock) was lost")
        }
    }

    /// Every HOTP counter is past every value any device handed out.
    private func checkCountersAdvanced() throws {
        let accounts = Dictionary(
            uniqueKeysWithValues: try devices[0].vault.accounts(includingDeleted: true).map { ($0.id, $0) })
        for device in devices.indices {
            for (id, counters) in used[device] {
                guard let highest = counters.max(), let account = accounts[id] else { continue }
                XCTAssertGreaterThan(
                    account.otp.counter, highest, "seed \(seed): the counter of \(account.label) went back")
            }
        }
    }

    /// The code each live account shows now (HOTP: at its current counter, without using it).
    private func codes(_ device: SyncTestDevice) throws -> [String] {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        return try device.vault.accounts().map { account in
            let code = try OTPGenerator.code(
                secret: device.vault.secret(for: account.id), parameters: account.otp, at: time)
            return "\(account.label)=\(code.value)"
        }
    }

    /// 16 lowercase hex digits, as a device id on the remote.
    private func randomDeviceID() -> String {
        (0..<8).map { _ in
            let byte = UInt8.random(in: 0...255, using: &random)
            return String(byte >> 4, radix: 16) + String(byte & 0x0f, radix: 16)
        }.joined()
    }

    private func randomUUID() -> uuid_t {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}
