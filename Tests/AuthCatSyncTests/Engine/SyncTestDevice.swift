import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// One simulated device: its own home folder, vault, clock and event log.
final class SyncTestDevice {
    let name: String
    let home: URL
    let clock: ManualClock
    let vault: Vault
    let events = EventCollector()
    var remote: any Remote
    /// The id to take on the remote when enabling; nil for a random one.
    var syncDeviceID: String?

    init(_ name: String, in folder: URL, remote: any Remote, clock: ManualClock = ManualClock()) throws {
        self.name = name
        home = folder.appendingPathComponent(name)
        self.clock = clock
        self.remote = remote
        vault = try Vault.openOrCreate(at: VaultLocation(folder: home), deviceName: name, clock: clock)
    }

    static let passphrase = "correct horse battery staple"

    @discardableResult
    func enable(passphrase: String = SyncTestDevice.passphrase) async throws -> SyncEnableResult {
        try await enable(secret: .passphrase(SecretBytes(utf8: passphrase)))
    }

    @discardableResult
    func enable(secret: SyncSecret?) async throws -> SyncEnableResult {
        try await SyncSetup.enable(
            vault: vault, remote: remote, remoteURL: remote.displayLocation, secret: secret,
            kdf: KDFParameters.minimumForTesting(), recorder: events, clock: clock,
            deviceID: syncDeviceID)
    }

    func engine() throws -> SyncEngine? {
        try SyncEngine.open(vault: vault, remote: remote, recorder: events, clock: clock)
    }

    /// The door a program syncs through, on this device's remote.
    func service() -> SyncService {
        SyncService(vault: vault, remotes: .fixed(remote), clock: clock, recorder: events)
    }

    @discardableResult
    func sync(file: StaticString = #filePath, line: UInt = #line) async throws -> SyncReport {
        guard let engine = try engine() else {
            XCTFail("sync is off on \(name)", file: file, line: line)
            return SyncReport()
        }
        clock.advance(by: 1)
        return try await engine.sync()
    }

    @discardableResult
    func compact(file: StaticString = #filePath, line: UInt = #line) async throws -> SyncReport {
        guard let engine = try engine() else {
            XCTFail("sync is off on \(name)", file: file, line: line)
            return SyncReport()
        }
        clock.advance(by: 1)
        return try await engine.compact()
    }

    @discardableResult
    func add(
        _ issuer: String, _ name: String, secret: String = "JBSWY3DPEHPK3PXP", otp: OTPParameters = OTPParameters()
    ) throws -> Account {
        clock.advance(by: 1)
        return try vault.write(author: .cli) { writer in
            try writer.insert(AccountDraft(issuer: issuer, name: name, otp: otp, secret: try Base32.decode(secret)))
        }
    }

    func edit(_ id: UUID, _ edit: AccountEdit) throws {
        clock.advance(by: 1)
        try vault.write(author: .cli) { writer in _ = try writer.update(id, edit) }
    }

    func delete(_ id: UUID) throws {
        clock.advance(by: 1)
        try vault.write(author: .cli) { writer in try writer.delete(id) }
    }

    func restore(_ id: UUID) throws {
        clock.advance(by: 1)
        try vault.write(author: .restore) { writer in _ = try writer.restore(id) }
    }

    func setPreference(_ key: String, _ value: String?) throws {
        clock.advance(by: 1)
        try vault.write(author: .cli) { writer in
            if let value { try writer.setPreference(key, to: value) } else { try writer.removePreference(key) }
        }
    }

    func useHOTP(_ id: UUID) throws -> UInt64? {
        clock.advance(by: 1)
        guard let account = try vault.account(id: id) else { return nil }
        return try vault.generateCode(for: account, at: clock.now()).counter
    }

    func disable(everywhere: Bool = false, deleteRemote: Bool = false) async throws {
        guard let engine = try engine() else { return }
        try await engine.disable(everywhere: everywhere, deleteRemote: deleteRemote)
    }

    /// Live accounts as comparable text: label, settings, note, tags, secret.
    func fingerprint() throws -> [String] {
        try vault.accounts().map { account in
            let secret = Base32.encode(try vault.secret(for: account.id))
            return "\(account.id.vaultString) \(account.label) \(account.otp.kind.rawValue)/\(account.otp.digits)/"
                + "\(account.otp.counter) [\(account.tags.joined(separator: ","))] \(account.note) \(secret)"
        }
    }

    var labels: [String] {
        get throws { try vault.accounts().map(\.label) }
    }
}

extension XCTestCase {
    /// Runs `body` and returns the `SyncError` it threw, failing if it threw none.
    func syncError(
        _ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) async -> SyncError? {
        do {
            try await body()
            XCTFail("expected a sync error", file: file, line: line)
            return nil
        } catch let error as SyncError {
            return error
        } catch {
            XCTFail("expected a SyncError, got \(error)", file: file, line: line)
            return nil
        }
    }
}
