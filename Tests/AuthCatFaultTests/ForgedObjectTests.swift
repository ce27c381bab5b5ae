import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import GRDB
import XCTest

@testable import AuthCatSync

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 17 §4, §5 and §8: the built programs against a folder remote that an
/// attacker writes to. Planted objects are seeded random bytes; forged ones
/// are sealed with the master key, unwrapped from the manifest with the sync
/// passphrase as any insider (a joined device, a stolen one, a passphrase
/// holder) could. Devices A and B share the remote; the attacker targets B.
final class ForgedObjectTests: TwoDevicesFaultTestCase {
    private func plant(_ url: URL) throws {
        var bytes = [UInt8](repeating: 0, count: 512)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &random) }
        try Data(bytes).write(to: url)
    }

    /// Runs a command to its end; it must exit (never die of a signal) with `expected`.
    @discardableResult
    private func expect(
        _ expected: Int32, _ home: URL, _ arguments: [String], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> FaultRun {
        let result = try run(home, arguments, environment: environment)
        XCTAssertEqual(
            result.termination, .exited(expected),
            "authcat \(arguments.joined(separator: " ")): \(result.stdout) \(result.stderr)", file: file, line: line)
        return result
    }

    private func status(
        _ home: URL, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (exit: Int32, json: [String: Any]) {
        let result = try run(home, ["sync", "status", "--json"], environment: environment)
        guard case .exited(let code) = result.termination else {
            XCTFail("sync status died: \(result.termination)", file: file, line: line)
            return (-1, [:])
        }
        let json = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        return (code, json)
    }

    /// Background pushes that adds started are done, so the remote stays as the test leaves it.
    private func settle() {
        waitForStragglers(under: a.path, timeout: 30)
        waitForStragglers(under: b.path, timeout: 30)
    }

    // MARK: - markers

    func testAPlantedDisabledMarkerNeitherFoolsDisableEverywhereNorStopsTheRealOne() throws {
        try plant(vaultFolder.appendingPathComponent("disabled-9999999999"))
        let disabled = try expect(0, a, ["sync", "disable", "--everywhere"])
        XCTAssertTrue(disabled.stdout.contains("sync is off on every device"), disabled.stdout)
        let markers = try FileManager.default.contentsOfDirectory(atPath: vaultFolder.path).filter {
            $0.hasPrefix("disabled")
        }.sorted()
        XCTAssertEqual(
            markers, ["disabled-0000000001", "disabled-9999999999"], "the real next generation; no 11-digit name")

        try expect(1, b, ["sync", "now"])
        let (exit, json) = try status(b)
        XCTAssertEqual(exit, 0)
        XCTAssertEqual(json["summary"] as? String, "off", "B stopped at the real marker")
        XCTAssertTrue((json["message"] as? String)?.contains("another device") ?? false, "\(json)")
    }

    func testAPlantedDeletionMarkerIsNotRemoteDeletedAndDisableEnableSplitsNothing() throws {
        let manifest = vaultFolder.appendingPathComponent("manifest")
        try FileManager.default.moveItem(at: manifest, to: scratch.appendingPathComponent("hidden-manifest"))
        try plant(remoteFolder.appendingPathComponent("authcat-\(vaultID).deleted"))

        let (exit, json) = try status(b)
        XCTAssertEqual(exit, 4, "\(json)")
        XCTAssertEqual(json["summary"] as? String, "error")
        XCTAssertTrue((json["message"] as? String)?.contains("does not open") ?? false, "\(json)")
        let sync = try expect(4, b, ["sync", "now"])
        XCTAssertTrue(
            sync.stdout.contains("authcat-\(vaultID).deleted"), "the planted marker is reported: \(sync.stdout)")

        try expect(0, b, ["sync", "disable"])
        let enabled = try expect(0, b, ["sync", "enable", "--remote", remoteURL])
        XCTAssertTrue(enabled.stdout.contains("sync is on again"), enabled.stdout)
        XCTAssertEqual(try status(b).exit, 4, "the planted marker and the missing manifest still stand")
        XCTAssertEqual(try vaultIDs(), [vaultID], "no second remote vault")
        let joiner = makeHome("device-c")
        let refused = try expect(1, joiner, ["sync", "enable", "--remote", remoteURL])
        XCTAssertTrue(refused.stderr.contains("without its manifest"), refused.stderr)
        XCTAssertEqual(try vaultIDs(), [vaultID], "a joiner makes no second vault either")
    }

    // MARK: - the manifest

    func testAChangedManifestIsReportedBySyncStatusUntilPutBack() throws {
        let url = vaultFolder.appendingPathComponent("manifest")
        let original = try Data(contentsOf: url)
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: original) as? [String: Any])
        var kdf = try XCTUnwrap(json["kdf"] as? [String: Any])
        kdf["opsLimit"] = 4_294_967_295
        json["kdf"] = kdf
        try JSONSerialization.data(withJSONObject: json).write(to: url)

        let sync = try expect(4, b, ["sync", "now"])
        XCTAssertTrue(sync.stdout.contains("manifest changed"), sync.stdout)
        let (exit, status) = try status(b)
        XCTAssertEqual(exit, 4)
        XCTAssertEqual(status["summary"] as? String, "error")
        XCTAssertTrue((status["message"] as? String)?.contains("1 rejected object") ?? false, "\(status)")

        try original.write(to: url)
        try expect(0, b, ["sync", "now"])
        XCTAssertEqual(try self.status(b).exit, 0)
    }

    func testJoiningADifferentVaultWhereThisDeviceSyncedNeedsTheFlag() throws {
        try FileManager.default.moveItem(at: vaultFolder, to: scratch.appendingPathComponent("taken-away"))
        let stranger = makeHome("stranger")
        try succeed(stranger, ["sync", "enable", "--remote", remoteURL], environment: environment)
        try expect(1, b, ["sync", "now"])
        try expect(0, b, ["sync", "disable"])

        let refused = try expect(1, b, ["sync", "enable", "--remote", remoteURL])
        XCTAssertTrue(refused.stderr.contains("--join-different-vault"), refused.stderr)
        XCTAssertEqual(try status(b).json["summary"] as? String, "vault mismatch", "nothing was set up")
        let joined = try expect(0, b, ["sync", "enable", "--remote", remoteURL, "--join-different-vault"])
        XCTAssertTrue(joined.stdout.contains("joined the remote vault"), joined.stdout)
    }

    // MARK: - clocks

    /// A batch of a device id no real device has, sealed with the master key, holding one
    /// account whose every clock is `clock`.
    @discardableResult
    private func forgeBatch(clock: HybridTimestamp) throws -> URL {
        let insider = "00000000000000ff"
        let manifest = try Data(contentsOf: vaultFolder.appendingPathComponent("manifest"))
        let keys = try KeyManifest.decode(manifest, expectedVaultID: vaultID).unlock(
            with: .passphrase(SecretBytes(utf8: Self.passphrase))
        ).keys
        let stamped = { (value: String) in Stamped(value: value, clock: clock) }
        let account = AccountState(
            id: UUID().uuidString.lowercased(), createdAt: 1_700_000_000_000, counter: 0, issuer: stamped("Forged"),
            name: stamped("insider"), otp: Stamped(value: AccountState.OTPSettings(OTPParameters()), clock: clock),
            secret: stamped(Data(repeating: 1, count: 20).base64EncodedString()),
            tags: Stamped(value: [], clock: clock),
            note: stamped(""), deleted: Stamped(value: false, clock: clock))
        let name = RemoteLayout.batch(vaultID, device: insider, sequence: 1)
        let set = ChangeSet(
            format: ChangeSet.batchFormat, version: 1, vault: vaultID, device: insider, deviceName: "insider",
            vaultDevice: insider, sequence: 1, previous: "", createdAt: 0, accounts: [account], preferences: [])
        let sealed = try SealedObject.seal(
            try set.encoded(), key: keys.objectKey, vault: vaultID, device: insider, name: name)
        let url = remoteFolder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try sealed.write(to: url)
        return url
    }

    func testABatchWithAClockAtInt64MaxIsRejectedAndNothingDies() throws {
        try forgeBatch(clock: HybridTimestamp(wall: Int64.max, logical: Int64.max, device: "00000000000000ff"))
        let sync = try expect(4, b, ["sync", "now"])
        XCTAssertTrue(sync.stdout.contains("more than a day ahead") || sync.stdout.contains("logical"), sync.stdout)
        XCTAssertEqual(try status(b).exit, 4, "reported while it stands")

        // Every later sync runs to its end (it used to die of SIGILL), reporting the batch while it stands.
        try add(b, "bob", issuer: "B", environment: environment)
        settle()
        try expect(4, b, ["sync", "now"])
        try expect(4, b, ["sync", "now"])
        try expect(4, a, ["sync", "now"])
        XCTAssertEqual(try listed(a).map(\.label).sorted(), ["A:alice", "B:bob"], "B's later batches are accepted")
        XCTAssertFalse(try listed(b).contains { $0.issuer == "Forged" }, "rejected whole")
    }

    func testADeviceWhoseSyncStateHoldsAPoisonedClockRecovers() throws {
        settle()
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let store = try DatabaseQueue(path: b.appendingPathComponent("sync.sqlite").path, configuration: configuration)
        try store.write { db in
            try db.execute(sql: "UPDATE state SET hlcWall = ?, hlcLogical = ?", arguments: [Int64.max, Int64.max])
        }
        try store.close()

        try add(b, "bob", issuer: "B", environment: environment)
        settle()
        try expect(0, b, ["sync", "now"])
        try expect(0, b, ["sync", "now"])
        XCTAssertEqual(try status(b).exit, 0)
        try expect(0, a, ["sync", "now"])
        XCTAssertEqual(try listed(a).map(\.label).sorted(), ["A:alice", "B:bob"], "B's batch carries a sane clock")
    }
}
