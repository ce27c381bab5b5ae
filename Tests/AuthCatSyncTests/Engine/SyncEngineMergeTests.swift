import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// How changes from several devices combine.
final class SyncEngineMergeTests: SyncEngineTestCase {
    var a: SyncTestDevice!
    var b: SyncTestDevice!

    override func setUp() async throws {
        try await super.setUp()
        a = try device("a")
        b = try device("b")
    }

    /// A creates the remote vault, B joins; both synced.
    func startBoth() async throws {
        try await join(a, b)
        try await a.sync()
    }

    func syncAll() async throws {
        for _ in 0..<2 {
            try await a.sync()
            try await b.sync()
        }
    }

    func testConcurrentEditsOfDifferentFieldsBothSurvive() async throws {
        let account = try a.add("GitHub", "alice")
        try await startBoth()
        try a.edit(account.id, AccountEdit(note: "from a"))
        try b.edit(account.id, AccountEdit(tags: ["work"]))
        try await syncAll()
        for device in [a!, b!] {
            let merged = try XCTUnwrap(device.vault.account(id: account.id))
            XCTAssertEqual(merged.note, "from a")
            XCTAssertEqual(merged.tags, ["work"])
        }
    }

    func testTheLaterWriterWinsEvenWhenItSyncsFirst() async throws {
        let account = try a.add("GitHub", "alice")
        try await startBoth()
        try a.edit(account.id, AccountEdit(name: "early"))
        b.clock.advance(by: 60)
        try b.edit(account.id, AccountEdit(name: "late"))
        try await b.sync()
        try await a.sync()
        try await b.sync()
        XCTAssertEqual(try a.labels, ["GitHub:late"])
        XCTAssertEqual(try b.labels, ["GitHub:late"])
    }

    func testAnEditDoesNotBringBackADeletedAccount() async throws {
        let account = try a.add("GitHub", "alice")
        try await startBoth()
        try a.delete(account.id)
        try b.edit(account.id, AccountEdit(note: "edited meanwhile"))
        try await syncAll()
        XCTAssertEqual(try a.labels, [])
        XCTAssertEqual(try b.labels, [])
        XCTAssertEqual(try b.vault.account(id: account.id)?.note, "edited meanwhile")
    }

    func testARestoreWinsOverTheOlderTombstone() async throws {
        let account = try a.add("GitHub", "alice")
        try await startBoth()
        try a.delete(account.id)
        try await syncAll()
        XCTAssertEqual(try b.labels, [])
        try b.restore(account.id)
        try await syncAll()
        XCTAssertEqual(try a.labels, ["GitHub:alice"])
        XCTAssertEqual(try b.labels, ["GitHub:alice"])
    }

    func testTheHOTPCounterMergesAsTheMaximum() async throws {
        let account = try a.add("Bank", "alice", otp: OTPParameters(kind: .hotp))
        try await startBoth()
        for _ in 0..<3 { _ = try a.useHOTP(account.id) }
        XCTAssertEqual(try b.useHOTP(account.id), 0)
        try await syncAll()
        XCTAssertEqual(try a.vault.account(id: account.id)?.otp.counter, 3)
        XCTAssertEqual(try b.vault.account(id: account.id)?.otp.counter, 3)
        XCTAssertEqual(try b.useHOTP(account.id), 3, "b never hands out a value it has seen used")
    }

    func testImportedChangesAreInHistoryWithTheirDeviceAndAreNotEchoed() async throws {
        try await a.enable()
        try await a.sync()
        try await b.enable()
        try await b.sync()
        let account = try a.add("GitHub", "alice")
        try await a.sync()
        let report = try await b.sync()
        XCTAssertEqual(report.importedChanges, 1)
        XCTAssertEqual(report.exportedChanges, 0, "an imported change is not exported again")
        XCTAssertEqual(report.objectsWritten, 0)
        let entry = try XCTUnwrap(b.vault.history(recordID: account.id.vaultString).first)
        XCTAssertEqual(entry.author, .sync)
        XCTAssertEqual(entry.device, DeviceReference(id: a.vault.identity.deviceID, name: "a"))
    }

    func testJoiningWithTheSameAccountOnBothSidesKeepsOne() async throws {
        let fromA = try a.add("GitHub", "alice", otp: OTPParameters(kind: .hotp))
        let fromB = try b.add("github", "Alice", otp: OTPParameters(kind: .hotp))
        _ = try b.useHOTP(fromB.id)
        _ = try b.useHOTP(fromB.id)
        try await startBoth()
        try await syncAll()
        let survivor = min(fromA.id.vaultString, fromB.id.vaultString)
        for device in [a!, b!] {
            let live = try device.vault.accounts()
            XCTAssertEqual(live.map(\.id.vaultString), [survivor])
            XCTAssertEqual(live.first?.otp.counter, 2, "the survivor keeps the higher counter")
            XCTAssertEqual(
                try device.vault.accounts(includingDeleted: true).count, 2, "the other is a tombstone, not gone")
        }
        XCTAssertEqual(try a.fingerprint(), try b.fingerprint())
    }

    func testAMergedDuplicatesTombstoneKeepsTheHigherCounterAndARestoreNeverReusesOne() async throws {
        // Fixed ids, so that each device meets the clash from the other side:
        // on b the incoming account (smaller id) stays and b's own becomes the tombstone.
        let low = try XCTUnwrap(UUID(uuidString: "00000000-0000-4000-8000-000000000001"))
        let high = try XCTUnwrap(UUID(uuidString: "ffffffff-0000-4000-8000-000000000001"))
        for (device, id) in [(a!, low), (b!, high)] {
            _ = try device.vault.write(author: .cli) { writer in
                try writer.insert(
                    AccountDraft(
                        issuer: "Bank", name: "alice", otp: OTPParameters(kind: .hotp),
                        secret: try Base32.decode("JBSWY3DPEHPK3PXP")), id: id)
            }
        }
        for _ in 0..<5 { _ = try a.useHOTP(low) }
        _ = try b.useHOTP(high)
        try await startBoth()
        try await syncAll()
        for device in [a!, b!] {
            XCTAssertEqual(try device.vault.accounts().map(\.id), [low], device.name)
            let counters = try device.vault.accounts(includingDeleted: true).map(\.otp.counter)
            XCTAssertEqual(counters, [5, 5], "\(device.name): the tombstone too has the higher counter")
        }

        // The survivor is used further and renamed; restoring the tombstone starts after every used value.
        for _ in 0..<3 { _ = try b.useHOTP(low) }
        try b.edit(low, AccountEdit(name: "alice (old phone)"))
        try b.restore(high)
        XCTAssertEqual(try b.useHOTP(high), 8)
    }

    func testTheSameLabelWithDifferentSecretsKeepsBothUnderDistinctNames() async throws {
        let fromA = try a.add("GitHub", "alice", secret: "JBSWY3DPEHPK3PXP")
        let fromB = try b.add("GitHub", "alice", secret: "GEZDGNBVGY3TQOJQ")
        try await startBoth()
        try await syncAll()
        let renamed = [fromA, fromB].max { $0.id.vaultString < $1.id.vaultString }!
        let suffix = String(renamed.id.vaultString.prefix(8))
        XCTAssertEqual(try a.labels, ["GitHub:alice", "GitHub:alice (\(suffix))"])
        XCTAssertEqual(try a.fingerprint(), try b.fingerprint())
    }

    func testChangesMadeWhileSyncWasOffAreExportedWhenItIsOnAgain() async throws {
        let account = try a.add("GitHub", "alice")
        try await startBoth()
        try await a.disable()
        try a.edit(account.id, AccountEdit(note: "offline"))
        let added = try a.add("Mail", "alice")
        let resumed = try await a.enable(secret: nil)
        XCTAssertEqual(resumed.outcome, .resumed)
        let report = try await a.sync()
        XCTAssertEqual(report.exportedChanges, 2)
        try await b.sync()
        XCTAssertEqual(try b.vault.account(id: account.id)?.note, "offline")
        XCTAssertNotNil(try b.vault.account(id: added.id))
    }

    func testPreferencesTravelAndAreReportedWithTheirReason() async throws {
        try a.setPreference("theme", "dark")
        try await a.enable()
        try await a.sync()
        try await b.enable()
        var report = try await b.sync()
        XCTAssertEqual(report.preferenceChanges, [SyncReport.PreferenceChange(key: "theme", reason: .initialSync)])
        XCTAssertEqual(try b.vault.preferences(), ["theme": "dark"])
        try a.setPreference("theme", "light")
        try a.setPreference("sort", "name")
        try await a.sync()
        report = try await b.sync()
        XCTAssertEqual(
            Set(report.preferenceChanges),
            [
                SyncReport.PreferenceChange(key: "theme", reason: .serverChange),
                SyncReport.PreferenceChange(key: "sort", reason: .serverChange),
            ])
        try a.setPreference("sort", nil)
        try await a.sync()
        report = try await b.sync()
        XCTAssertEqual(report.preferenceChanges, [SyncReport.PreferenceChange(key: "sort", reason: .serverChange)])
        XCTAssertEqual(try b.vault.preferences(), ["theme": "light"])
    }

    func testAnIncomingPreferenceOverQuotaIsRefusedLocallyAndReported() async throws {
        try a.setPreference("theme", "dark")
        try await startBoth()
        let big = String(repeating: "x", count: PreferenceQuota.maximumTotalBytes - 2_000)
        try b.setPreference("big", big)
        try a.setPreference("note", String(repeating: "y", count: 5_000))
        try a.setPreference("small", "ok")
        try await a.sync()
        let report = try await b.sync()
        XCTAssertTrue(
            report.preferenceChanges.contains(SyncReport.PreferenceChange(key: "note", reason: .quotaViolation)))
        XCTAssertTrue(
            report.preferenceChanges.contains(SyncReport.PreferenceChange(key: "small", reason: .serverChange)))
        XCTAssertNil(try b.vault.preferences()["note"])
        XCTAssertEqual(try b.vault.preferences()["big"], big)
    }

    func testPreferencesFromANewRemoteVaultAreAnAccountChange() async throws {
        try await startBoth()
        try await a.disable(deleteRemote: true)
        try a.setPreference("theme", "dark")
        let created = try await a.enable()
        XCTAssertEqual(created.outcome, .created)
        try await a.sync()
        _ = await syncError { try await self.b.sync() }
        let joined = try await b.enable()
        XCTAssertEqual(joined.outcome, .joined)
        let report = try await b.sync()
        XCTAssertEqual(report.preferenceChanges, [SyncReport.PreferenceChange(key: "theme", reason: .accountChange)])
    }

    func testAlocalChangeMadeDuringAnImportIsNotOverwritten() async throws {
        let account = try a.add("GitHub", "alice")
        try await startBoth()
        try a.edit(account.id, AccountEdit(note: "from a"))
        try await a.sync()
        // b changes the same field later, without syncing first: its newer value must win on both.
        b.clock.advance(by: 100)
        try b.edit(account.id, AccountEdit(note: "from b, later"))
        try await syncAll()
        XCTAssertEqual(try a.vault.account(id: account.id)?.note, "from b, later")
        XCTAssertEqual(try b.vault.account(id: account.id)?.note, "from b, later")
    }
}
