import Foundation
import XCTest

/// Other apps' password-protected exports, end to end through authcat-cli:
/// the password comes from `AUTHCAT_IMPORT_PASSPHRASE_FILE`; a wrong one
/// is a one-line error and leaves the vault as it was.
final class EncryptedImportTests: InterchangeTests {
    func testEncrypted2FASBackup() throws {
        try assertImports(
            "2fas_authenticator_encrypted_v4.2fas", password: "test", source: "2FAS backup",
            labels: ["Deno:Mason", "Issuu:James", "Air Canada:Benjamin", "WWE:Mason", "Boeing:Sophia"])
    }

    /// A binary file that no other format claims is read as an encrypted andOTP backup.
    func testEncryptedAndOTPBackupOfTheOldLayout() throws {
        try assertImports(
            "andotp_encrypted_old.bin", password: "test", source: "andOTP backup",
            labels: ["Deno:Mason", "SPDX:James", "Airbnb:Elijah", "Issuu:James", "Air Canada:Benjamin", "WWE:Mason"])
    }

    /// Argon2id with four lanes, through libargon2.
    func testPasswordProtectedBitwardenExport() throws {
        try assertImports(
            "bitwarden_encrypted_argon2id.json", password: "test-password", source: "Bitwarden export",
            labels: [
                "GitHub:alice@example.com", "Ünïcødé Bank:李雷 🐱", "Example:sha512", "HOTP Corp:bob", "Steam:gamer",
                "Plain Secret:carol",
            ])
    }

    /// Argon2id (64 MiB, 4 lanes) and AES-GCM.
    func testEncryptedStratumBackup() throws {
        try assertImports(
            "stratum_encrypted.bin", password: "test", source: "Stratum (Authenticator Pro) backup",
            labels: [
                "Deno:Mason", "SPDX:James", "Airbnb:Elijah", "Issuu:James", "Air Canada:Benjamin", "WWE:Mason",
                "Boeing:Sophia",
            ])
    }

    /// Argon2id through libargon2 over libsodium's parameters, and a secretstream chunk.
    func testEncryptedEnteAuthExport() throws {
        try assertImports(
            "ente_encrypted.json", password: "test-password", source: "Ente Auth export",
            labels: [
                "GitHub:alice@example.com", "Ünïcødé Bank:李雷 🐱", "Example:sha512", "HOTP Corp:bob", "Steam:gamer",
            ])
    }

    /// AES-CBC under the SHA-256 of the password, the app's own tried first.
    func testEncryptedTOTPAuthenticatorBackup() throws {
        try assertImports(
            "totp_authenticator.bin", password: "Testtest1", source: "TOTP Authenticator backup",
            labels: ["Deno:mason", "SPDX:james", "Airbnb:elijah"])
    }

    /// Imports `file` (format recognised from the content) with a wrong
    /// password, then the right one, and compares `list --json`.
    private func assertImports(
        _ file: String, password: String, source: String, labels: [String], arguments: [String] = [],
        fileName: StaticString = #filePath, line: UInt = #line
    ) throws {
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        let wrong = try scratch("wrong", "not \(password)\n")
        assertOneLineError(
            try authcat.run(
                ["import", fixture(file)] + arguments, environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": wrong]),
            containing: "the password does not open this \(source)", status: 1, file: fileName, line: line)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before, file: fileName, line: line)
        let right = try scratch("right", "\(password)\n")
        let output = try succeed(
            ["import", fixture(file)] + arguments, environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": right])
        XCTAssertTrue(
            output.hasPrefix("added \(labels.count) accounts from the \(source)"), output, file: fileName, line: line)
        let listed = try accountsWithoutIDs(home: authcat.home.path).map { account in
            // `list --json` gives a missing issuer as null.
            [account["issuer"], account["name"]].compactMap { $0 }.filter { $0 != "<null>" }.joined(separator: ":")
        }
        XCTAssertEqual(listed.sorted(), (labels + ["existing"]).sorted(), file: fileName, line: line)
        XCTAssertFalse(output.contains(password), file: fileName, line: line)
    }
}
