import Foundation
import GRDB
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

/// Yandex and mOTP accounts in the vault: the PIN sealed like the secret, codes, edits, the schema's checks.
final class VaultPINTests: VaultTestCase {
    private let yandexKey = "LA2V6KMCGYMWWVEW64RNP3JA3I"

    private func yandexDraft(pin: String? = "7586") throws -> AccountDraft {
        AccountDraft(
            issuer: "Yandex", name: "ivan", otp: OTPParameters(kind: .yandex), secret: try Base32.decode(yandexKey),
            pin: pin.map { SecretBytes(utf8: $0) })
    }

    private func motpDraft() throws -> AccountDraft {
        AccountDraft(
            issuer: "PfSense", name: "jimmy", otp: OTPParameters(kind: .motp),
            secret: try Base16.decode("e3152afee62599c8"),
            pin: SecretBytes(utf8: "1234"))
    }

    func testCodesMatchThePublishedVectors() throws {
        let vault = try makeVault()
        let yandex = try add(vault, yandexDraft())
        let motp = try add(vault, motpDraft())
        XCTAssertEqual(
            try vault.generateCode(for: yandex, at: Date(timeIntervalSince1970: 1_581_064_020)).code.value, "oactmacq")
        XCTAssertEqual(
            try vault.generateCode(for: motp, at: Date(timeIntervalSince1970: 165_892_298)).code.value, "e7d8b6")
        XCTAssertEqual(try vault.pin(for: yandex.id), SecretBytes(utf8: "7586"))
        XCTAssertNil(try vault.pin(for: try add(vault, draft("plain")).id))
    }

    func testThePINIsSealedAndBoundToItsAccount() throws {
        let vault = try makeVault()
        let account = try add(vault, yandexDraft(pin: "5210481216086702"))
        let database = try DatabaseQueue(path: location.databaseURL.path)
        let row = try XCTUnwrap(try database.read { try Row.fetchOne($0, sql: "SELECT * FROM account") })
        let sealed: Data = try XCTUnwrap(row["sealedPIN"])
        XCTAssertEqual(sealed.count, 24 + 16 + 16, "nonce, the 16-byte PIN, tag")
        // Nowhere in the vault's files in plain text.
        for (name, data) in try snapshotFiles() {
            XCTAssertNil(data.range(of: Data("5210481216086702".utf8)), name)
        }
        // A sealed PIN moved into the secret column (or onto another account) does not open.
        try database.write { try $0.execute(sql: "UPDATE account SET sealedSecret = sealedPIN") }
        let reopened = try Vault.open(at: location, clock: clock)
        XCTAssertThrowsError(try reopened.secret(for: account.id))
    }

    func testAPINIsRequiredExactlyForItsKinds() throws {
        let vault = try makeVault()
        XCTAssertThrowsError(try add(vault, yandexDraft(pin: nil))) {
            XCTAssertEqual($0 as? OTPParameterError, .missingPIN(.yandex))
        }
        var totp = draft("alice")
        totp.pin = SecretBytes(utf8: "1234")
        XCTAssertThrowsError(try add(vault, totp)) { XCTAssertEqual($0 as? OTPPINError, .unexpected(.totp)) }
        XCTAssertEqual(try vault.accounts().count, 0)
    }

    func testTheSchemaRefusesRowsThatBreakThePINRules() throws {
        let vault = try makeVault()
        let account = try add(vault, yandexDraft())
        let database = try DatabaseQueue(path: location.databaseURL.path)
        let breaking = [
            "UPDATE account SET sealedPIN = NULL",
            "UPDATE account SET kind = 'totp', algorithm = 'sha1', digits = 6",
            "UPDATE account SET algorithm = 'md5'",
        ]
        for sql in breaking {
            XCTAssertThrowsError(
                try database.write { try $0.execute(sql: sql + " WHERE id = ?", arguments: [account.id.vaultString]) },
                sql)
        }
    }

    func testChangingThePINIsRecordedAsASecretChange() throws {
        let vault = try makeVault()
        let account = try add(vault, yandexDraft())
        let unchanged = try vault.write(author: .cli) {
            try $0.update(account.id, AccountEdit(pin: SecretBytes(utf8: "7586")))
        }
        XCTAssertEqual(unchanged, account)
        clock.advance(by: 1)
        try vault.write(author: .cli) { try $0.update(account.id, AccountEdit(pin: SecretBytes(utf8: "7587"))) }
        XCTAssertEqual(try vault.pin(for: account.id), SecretBytes(utf8: "7587"))
        XCTAssertEqual(try vault.history().first?.changes.first?.fields, ["secret"])
        // Becoming TOTP drops the PIN; becoming Yandex again needs one.
        try vault.write(author: .cli) { try $0.update(account.id, AccountEdit(otp: OTPParameters(kind: .totp))) }
        XCTAssertNil(try vault.pin(for: account.id))
        XCTAssertThrowsError(
            try vault.write(author: .cli) { try $0.update(account.id, AccountEdit(otp: OTPParameters(kind: .yandex))) })
    }

    func testAVersion1VaultTakesYandexAndMOTPAccountsAfterMigrating() throws {
        let fixture = try XCTUnwrap(
            Bundle.module.url(forResource: "vault-v1", withExtension: nil, subdirectory: "Fixtures"))
        try FileManager.default.copyItem(at: fixture, to: location.folder)
        chmod(location.folder.path, 0o700)
        chmod(location.databaseURL.path, 0o600)
        chmod(location.keyFileURL.path, 0o600)
        let vault = try Vault.open(at: location, clock: clock)
        let yandex = try add(vault, yandexDraft())
        try add(vault, motpDraft())
        XCTAssertEqual(try vault.accounts().map(\.label), ["GitHub:alice", "PfSense:jimmy", "Yandex:ivan"])
        XCTAssertEqual(
            try vault.generateCode(for: yandex, at: Date(timeIntervalSince1970: 1_581_090_810)).code.value, "wemdwrix")
    }
}
