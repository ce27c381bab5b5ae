import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatInterchange

final class VaultBackupTests: InterchangeTestCase {
    private let passphrase = SecretBytes(utf8: "backup passphrase")

    private func context(_ text: String = "backup passphrase") -> ImportContext {
        ImportContext(password: { SecretBytes(utf8: text) })
    }

    private func makeBackup(of vault: Vault, history: Bool = false) throws -> Data {
        try VaultBackup.seal(
            VaultBackup.archive(of: vault, includeHistory: history), passphrase: passphrase,
            kdf: KDFParameters.minimumForTesting())
    }

    private func fullVault() throws -> Vault {
        let vault = try makeVault("source")
        try add(vault, ExpectedAccount.standard(tags: [["Work"], ["Bank ✓"]], notes: ["a note"]))
        try vault.write(author: .cli) { try $0.setPreference("display.grouping", to: "issuer") }
        return vault
    }

    func testRestoreIntoAnEmptyVaultReproducesEverything() throws {
        let source = try fullVault()
        let backup = try makeBackup(of: source)
        let target = try makeVault("target")
        let outcome = try Importer(vault: target, author: .restore).run(AuthCatFormat.parse(backup, context: context()))
        XCTAssertEqual(outcome.added.count, 5)
        XCTAssertEqual(try contents(of: target), try contents(of: source))
        XCTAssertEqual(try target.accounts().map(\.id), try source.accounts().map(\.id))
        XCTAssertEqual(try target.accounts().map(\.createdAt), try source.accounts().map(\.createdAt))
        XCTAssertEqual(try target.preferences(), ["display.grouping": "issuer"])
    }

    func testRestoreMergesIntoANonEmptyVault() throws {
        let source = try fullVault()
        let backup = try makeBackup(of: source)
        let target = try makeVault("target")
        try add(
            target,
            [ExpectedAccount.standard[0], ExpectedAccount(issuer: "Local", name: "only", secret: "MFRGGZDFMZTWQ2LK")])
        let outcome = try Importer(vault: target, author: .restore).run(AuthCatFormat.parse(backup, context: context()))
        XCTAssertEqual(outcome.added.count, 4)
        XCTAssertEqual(outcome.plan.skipped.count, 1)
        XCTAssertEqual(try target.accounts().count, 6)
    }

    func testWrongPassphraseOrTamperingChangesNothing() throws {
        let backup = try makeBackup(of: try fullVault())
        let target = try makeVault("target")
        try add(target, [ExpectedAccount(issuer: "Local", name: "only", secret: "MFRGGZDFMZTWQ2LK")])
        let before = try snapshot(target)
        XCTAssertThrowsError(try AuthCatFormat.parse(backup, context: context("wrong"))) {
            XCTAssertEqual($0 as? BackupError, .wrongPassphraseOrAltered)
        }
        var tampered = backup
        tampered[tampered.count - 3] ^= 1
        XCTAssertThrowsError(try AuthCatFormat.parse(tampered, context: context()))
        XCTAssertEqual(try snapshot(target), before)
    }

    func testVerifyReportsCountsWithoutAVault() throws {
        let source = try fullVault()
        let verification = try VaultBackup.verify(try makeBackup(of: source, history: true), context: context())
        XCTAssertEqual(verification.accounts, 5)
        XCTAssertEqual(verification.preferences, 1)
        XCTAssertEqual(verification.historyTransactions, try source.history().count)
        XCTAssertEqual(verification.vaultID, source.identity.vaultID)
        XCTAssertNil(try VaultBackup.verify(try makeBackup(of: source), context: context()).historyTransactions)
    }

    func testVerifyRefusesABackupWithAnInvalidAccount() throws {
        let source = try fullVault()
        var archive = try VaultBackup.archive(of: source)
        archive.accounts[1].secret = "not base32!"
        archive.accounts[2].digits = 99
        let kdf = try KDFParameters.minimumForTesting()
        let sealed = try VaultBackup.seal(archive, passphrase: passphrase, kdf: kdf)
        XCTAssertThrowsError(try VaultBackup.verify(sealed, context: context())) { error in
            guard case .invalidEntries(let rejections)? = error as? ImportError else { return XCTFail("\(error)") }
            XCTAssertEqual(rejections.map(\.position.description), ["account 2", "account 3"])
        }
        XCTAssertThrowsError(try VaultBackup.verify(Data("{}".utf8), context: context())) {
            XCTAssertEqual($0 as? BackupError, .notABackup)
        }
    }

    func testABackupWrittenIndependentlyFromTheFormatDocument() throws {
        let data = try Fixture.data("backup_independent.authcat")
        let verification = try VaultBackup.verify(data, context: context("correct horse battery staple"))
        XCTAssertEqual(verification.accounts, 4)
        let target = try makeVault()
        try Importer(vault: target, author: .restore).run(
            AuthCatFormat.parse(data, context: context("correct horse battery staple")))
        var expected = ExpectedAccount.standard.filter { $0.name != "sha512" }
        expected[0].tags = ["Work"]
        expected[0].note = "recovery codes in the safe"
        expected[1].tags = ["Bank ✓", "Work"]
        XCTAssertEqual(try contents(of: target), displayOrder(expected))
        XCTAssertEqual(try target.preferences(), ["display.grouping": "issuer"])
        XCTAssertEqual(
            try target.account(id: XCTUnwrap(UUID(uuidString: "7e2a3c1d-0b4f-4e4e-8d1a-3c5b7a9e1f03")))?.label,
            "HOTP Corp:bob")
    }

    func testArchiveJSONIsStableAndChecked() throws {
        let archive = try VaultBackup.archive(of: try fullVault(), includeHistory: true, at: Date(unixMilliseconds: 5))
        XCTAssertEqual(try archive.encoded(), try archive.encoded())
        XCTAssertEqual(try AuthCatArchive.decode(archive.encoded()), archive)
        XCTAssertThrowsError(
            try AuthCatArchive.decode(
                Data(#"{"format": "other", "version": 1, "kind": "backup", "createdAt": 0, "accounts": []}"#.utf8)))
        XCTAssertThrowsError(
            try AuthCatArchive.decode(
                Data(#"{"format": "authcat", "version": 9, "kind": "backup", "createdAt": 0, "accounts": []}"#.utf8)))
        XCTAssertThrowsError(
            try AuthCatArchive.decode(
                Data(
                    #"{"format": "authcat", "version": 1, "kind": "backup", "createdAt": 0, "accounts": [{"id": 5}]}"#
                        .utf8))
        ) { error in
            XCTAssertEqual(
                "\(error)", "the backup decrypts but its content is invalid: field 'accounts[0].id' has the wrong type")
        }
    }
}
