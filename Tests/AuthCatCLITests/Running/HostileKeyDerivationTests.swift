import Foundation
import XCTest

/// Files and remotes that ask for a ruinous key derivation, against the built
/// `authcat-cli`. Each runs under an address-space limit (`prlimit --as`) well
/// below what the attack asks for, so an unbounded allocation would fail the
/// test with another message rather than thrash the machine; an unbounded
/// number of passes would run into the runner's timeout. No timing is asserted.
final class HostileKeyDerivationTests: SyncTestCase {
    /// Far above what authcat-cli needs (a join derives with 256 MiB), far below the attacks' gigabytes.
    private static let addressSpaceLimit = 1536 << 20

    func testAnAegisSlotWithHugeParallelismIsRefusedInOneLine() throws {
        let device = try makeDevice()
        for (n, r, p, asked) in [
            (2, 1, 1 << 24, "2.0 GiB of memory"), (1 << 30, 8, 1, "1024.0 GiB of memory"),
            (1 << 16, 8, 64, "scrypt work N·r·p of 33554432"),
        ] {
            let file = try write(aegisVault(slots: [slot(n: n, r: r, p: p)]), named: "aegis-export.json")
            // The password is there, so only the bound stands between the file and the derivation.
            let result = try runLimited(
                device, ["import", file.path], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": passphraseFile.path])
            XCTAssertEqual(result.status, 1, result.stderr)
            let limit = asked.hasSuffix("memory") ? "1 GiB" : "8388608"
            XCTAssertEqual(
                result.stderr,
                "authcat: the Aegis file asks for \(asked) for its key derivation; authcat allows at most \(limit)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: device.databaseURL.path), "no vault was created")
        }
    }

    func testAnAegisFileWithAHundredThousandSlotsIsRefused() throws {
        let device = try makeDevice()
        // Slots of one field each: the count alone must refuse them, before any slot is read.
        let slots = Array(repeating: ["type": 1] as [String: Any], count: 100_000)
        let result = try runLimited(device, ["import", try write(aegisVault(slots: slots), named: "aegis.json").path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(
            result.stderr,
            "authcat: this is not a valid Aegis vault: its header lists 100000 key slots; authcat reads at most 16\n")
    }

    /// Other apps' encrypted exports whose key derivation fields ask for
    /// too much: refused in one line, with the password there, so only the
    /// bound stands between the file and the derivation.
    func testOtherAppsExportsWithRuinousKeyDerivationsAreRefusedInOneLine() throws {
        let device = try makeDevice()
        let cases: [(fixture: String, fields: [String: Any], message: String)] = [
            (
                "bitwarden_encrypted_argon2id.json", ["kdfMemory": 12 << 10],
                "the Bitwarden export asks for 12 GiB of memory for its key derivation; authcat allows at most 1 GiB"
            ),
            (
                "bitwarden_encrypted_pbkdf2.json", ["kdfIterations": 4_294_967_295],
                "the Bitwarden export asks for 4294967295 PBKDF2 iterations for its key derivation; authcat allows at "
                    + "most 10000000"
            ),
            (
                "ente_encrypted.json",
                ["kdfParams": ["memLimit": 64 << 20, "opsLimit": 1 << 20, "salt": "AAAAAAAAAAAAAAAAAAAAAA=="]],
                "the Ente Auth export asks for 1048576 passes for its key derivation; authcat allows at most 256"
            ),
        ]
        for (fixture, fields, message) in cases {
            let url = InterchangeTests.fixtures.appendingPathComponent(fixture)
            var document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            document.merge(fields) { $1 }
            let file = try write(JSONSerialization.data(withJSONObject: document), named: fixture)
            let result = try runLimited(
                device, ["import", file.path], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": passphraseFile.path])
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(result.stderr, "authcat: \(message)\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: device.databaseURL.path), "no vault was created")
    }

    func testABackupWithAbsurdKeyDerivationLimitsIsRefusedBeforeAnyPassphrase() throws {
        let device = try makeDevice()
        try add(device, "alice")
        let backupPassphrase = scratch.appendingPathComponent("backup-passphrase")
        try write("backup passphrase\n", to: backupPassphrase)
        let backup = scratch.appendingPathComponent("vault.authcat")
        try succeed(
            device, ["backup", "--output", backup.path],
            environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": backupPassphrase.path])
        let original = try Data(contentsOf: backup)
        // The header (docs/FORMAT.md §4): opslimit at offset 12, memlimit at 20, both big-endian.
        for (offset, value, asked) in [
            (12, UInt64(UInt32.max), "4294967295 passes"), (20, UInt64(12) << 30, "12 GiB of memory"),
        ] {
            var hostile = original
            hostile.replaceSubrange(offset..<offset + 8, with: withUnsafeBytes(of: value.bigEndian) { Data($0) })
            let file = try write(hostile, named: "hostile.authcat")
            let allowed = asked.hasSuffix("passes") ? "16" : "1 GiB"
            for command in [["import", file.path], ["restore-backup", file.path]] {
                let result = try runLimited(
                    device, command, environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": backupPassphrase.path])
                XCTAssertEqual(result.status, 1, result.stderr)
                XCTAssertEqual(
                    result.stderr,
                    "authcat: the backup asks for \(asked) for its key derivation; authcat allows at most \(allowed)\n")
            }
        }
        XCTAssertEqual(try labels(device), ["Example:alice"], "the vault is unchanged")
    }

    func testJoiningAManifestWithAbsurdArgon2LimitsIsRefused() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        let manifestPath = try XCTUnwrap(remoteFiles().first { $0.hasSuffix("/manifest") })
        let manifestURL = remoteFolder.appendingPathComponent(manifestPath)
        let original = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        for (key, value, asked) in [
            ("opsLimit", UInt64(UInt32.max), "4294967295 passes"), ("memLimit", UInt64(12) << 30, "12 GiB of memory"),
        ] {
            var manifest = original
            var kdf = try XCTUnwrap(manifest["kdf"] as? [String: Any])
            kdf[key] = value
            manifest["kdf"] = kdf
            try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
            let result = try runLimited(second, ["sync", "enable", "--remote", remoteURL])
            XCTAssertNotEqual(result.status, 0, result.stderr)
            let allowed = key == "opsLimit" ? "16" : "1 GiB"
            XCTAssertTrue(
                result.stderr.hasPrefix(
                    "authcat: the remote vault's manifest asks for \(asked) for its key derivation; authcat allows at most \(allowed)"
                ),
                result.stderr)
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)")
        }
    }

    // MARK: - Helpers

    /// `authcat-cli --home … arguments` under `prlimit --as`, through a small script (the runner passes `--home` first).
    private func runLimited(
        _ device: AuthCatRunner, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> AuthCatResult {
        let script = scratch.appendingPathComponent("limited-authcat-cli")
        if !FileManager.default.fileExists(atPath: script.path) {
            let text =
                "#!/bin/sh\nexec /usr/bin/prlimit --as=\(Self.addressSpaceLimit) -- '\(AuthCatRunner.fullProgramURL.path)' \"$@\"\n"
            try Data(text.utf8).write(to: script)
            chmod(script.path, 0o700)
        }
        return try device.runAsProcess(program: script, arguments, environment: environment)
    }

    private func write(_ data: Data, named name: String) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    private func slot(n: Int, r: Int, p: Int) -> [String: Any] {
        [
            "type": 1, "uuid": UUID().uuidString, "key": String(repeating: "ab", count: 32),
            "key_params": ["nonce": String(repeating: "00", count: 12), "tag": String(repeating: "00", count: 16)],
            "n": n, "r": r, "p": p, "salt": String(repeating: "11", count: 32),
        ]
    }

    /// An encrypted Aegis vault whose header lists `slots`; its `db` is never reached.
    private func aegisVault(slots: [[String: Any]]) throws -> Data {
        let vault: [String: Any] = [
            "version": 1,
            "header": [
                "slots": slots,
                "params": ["nonce": String(repeating: "00", count: 12), "tag": String(repeating: "00", count: 16)],
            ],
            "db": Data(repeating: 7, count: 64).base64EncodedString(),
        ]
        return try JSONSerialization.data(withJSONObject: vault)
    }
}
