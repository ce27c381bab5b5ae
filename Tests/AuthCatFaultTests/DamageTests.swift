import AuthCatTestSupport
import Foundation
import XCTest

/// Issue 8 §3: damage on this machine is reported, never used as if whole.
final class DamageTests: FaultTestCase {
    /// A vault cut short by 1 to 100 bytes (seeded) is refused by every
    /// command, with one clean line, and left byte for byte as it was.
    func testTruncatedVaultIsRefusedAndLeftUntouched() throws {
        let home = makeHome("truncated")
        try add(home, "a", issuer: "T")
        try add(home, "h", issuer: "T", ["--type", "hotp"])
        let database = home.appendingPathComponent("vault.sqlite")
        let whole = try Data(contentsOf: database)
        let cut = Int.random(in: 1...100, using: &random)
        try whole.prefix(whole.count - cut).write(to: database)
        let damaged = try Data(contentsOf: database)

        let commands: [([String], String?)] = [
            (["list"], nil), (["list", "--json"], nil), (["code", "T:a"], nil), (["code", "T:h"], nil),
            (["add", "b", "--issuer", "T"], Self.rfcSecret + "\n"), (["edit", "T:a", "--tag", "x"], nil),
            (["rm", "T:a", "--yes"], nil), (["config", "set", "--synced", "user.k", "v"], nil), (["history"], nil),
        ]
        var accepted: [String] = []
        for (arguments, stdin) in commands {
            let result = try run(home, arguments, stdin: stdin)
            let line = "\(arguments.joined(separator: " ")) on a vault cut by \(cut) bytes (seed \(FaultSettings.seed))"
            if result.succeeded {
                accepted.append(line)
                continue
            }
            XCTAssertEqual(result.stderrLines.count, 1, "\(line): \(result.stderr)")
            XCTAssertTrue(result.errorLine?.hasPrefix("authcat: ") == true, "\(line): \(result.stderr)")
            XCTAssertFalse(Self.hasRawSQLiteText(result.stderr), "\(line): \(result.stderr)")
        }
        FaultSettings.record("truncated vault: commands that used it", accepted.count)
        XCTAssertEqual(accepted, [], "a truncated vault is refused")
        XCTAssertEqual(try Data(contentsOf: database), damaged, "the damaged vault is left untouched")
    }

    /// Sync state emptied on a vault that had sync set up is an error that
    /// says what to do, never "off" with exit 0.
    func testEmptiedSyncStateIsNotOff() throws {
        let home = makeHome("sync-state")
        let environment = ["AUTHCAT_SYNC_PASSPHRASE_FILE": passphraseFile.path]
        try add(home, "a", issuer: "S")
        try succeed(
            home, ["sync", "enable", "--remote", "file://" + scratch.appendingPathComponent("remote").path],
            environment: environment)
        waitForStragglers(under: home.path, timeout: 30)
        let state = home.appendingPathComponent("sync.sqlite")
        XCTAssertTrue(FileManager.default.fileExists(atPath: state.path), "sync keeps its state in sync.sqlite")
        for name in ["sync.sqlite-wal", "sync.sqlite-shm"] {
            try? FileManager.default.removeItem(at: home.appendingPathComponent(name))
        }
        try Data().write(to: state)

        let status = try run(home, ["sync", "status", "--json"], environment: environment)
        let json = (try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8))) as? [String: Any] ?? [:]
        FaultSettings.record(
            "emptied sync state: sync status", "\(json["summary"] ?? "nothing") (\(status.termination))")
        XCTAssertNotEqual(status.termination, .exited(0), "emptied sync state: \(status.stdout) \(status.stderr)")
        XCTAssertNotEqual(json["summary"] as? String, "off")
    }
}
