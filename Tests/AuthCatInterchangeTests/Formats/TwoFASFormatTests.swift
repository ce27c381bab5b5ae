import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class TwoFASFormatTests: XCTestCase {
    func testBackupWithAllKindsAndAGroup() throws {
        let parsed = try TwoFASFormat.parse(Fixture.data("twofas.2fas"), context: ImportContext())
        var expected = ExpectedAccount.standard(tags: [["Work"]])
        expected.append(
            ExpectedAccount(issuer: "", name: "Only A Service", secret: "MFRGGZDFMZTWQ2LK", note: "no account name"))
        assertEntries(parsed, expected)
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
    }

    func testMalformedServices() throws {
        let data = Data(
            #"{"services": [{"name": "A"}, {"name": "B", "secret": 12}, {"name": "C", "secret": "JBSWY3DPEHPK3PXP", "otp": {"tokenType": "MOTP"}}], "groups": []}"#
                .utf8)
        let parsed = try TwoFASFormat.parse(data, context: ImportContext())
        XCTAssertTrue(parsed.entries.isEmpty)
        XCTAssertEqual(parsed.rejections.map(\.kind), ["invalid", "invalid", "unsupported"])
        XCTAssertEqual(parsed.rejections[0].message, "field 'secret' is missing")
        XCTAssertThrowsError(try TwoFASFormat.parse(Data(#"{"services": 3}"#.utf8), context: ImportContext()))
        XCTAssertThrowsError(
            try TwoFASFormat.parse(Data(#"{"services": [], "groups": [{"id": 1}]}"#.utf8), context: ImportContext()))
    }

    // MARK: Real 2FAS files of every schema (Aegis v3.4.2's test files; password "test")

    private let password = ImportContext.answering("test")

    func testPlainBackupsOfEverySchema() throws {
        // Schema 2 knows TOTP only: HOTP accounts came out as TOTP with a 30 s period.
        assertEntries(
            try TwoFASFormat.parse(Fixture.data("2fas_authenticator_plain.2fas"), context: ImportContext()), schema2)
        assertEntries(
            try TwoFASFormat.parse(Fixture.data("2fas_authenticator_plain_v3.2fas"), context: ImportContext()),
            ExpectedAccount.aegisVectors(["Deno", "SPDX", "Airbnb", "Issuu", "Air Canada", "WWE"]))
        assertEntries(
            try TwoFASFormat.parse(Fixture.data("2fas_authenticator_plain_v4.2fas"), context: ImportContext()),
            ExpectedAccount.aegisVectors(["Deno", "Issuu", "Air Canada", "WWE", "Boeing"]))
    }

    func testEncryptedBackupsOfEverySchema() throws {
        assertEntries(
            try TwoFASFormat.parse(Fixture.data("2fas_authenticator_encrypted.2fas"), context: password), schema2)
        assertEntries(
            try TwoFASFormat.parse(Fixture.data("2fas_authenticator_encrypted_v3.2fas"), context: password),
            ExpectedAccount.aegisVectors(["Deno", "SPDX", "Airbnb", "Issuu", "Air Canada", "WWE"]))
        assertEntries(
            try TwoFASFormat.parse(Fixture.data("2fas_authenticator_encrypted_v4.2fas"), context: password),
            ExpectedAccount.aegisVectors(["Deno", "Issuu", "Air Canada", "WWE", "Boeing"]))
    }

    private var schema2: [ExpectedAccount] {
        ExpectedAccount.aegisVectors(["Deno", "Airbnb", "Issuu", "WWE"]).map {
            var account = $0
            account.kind = .totp
            account.counter = 0
            return account
        }
    }

    func testANullServicesEncryptedIsAPlainBackup() throws {
        let data = Data(
            #"{"services": [{"name": "A", "secret": "JBSWY3DPEHPK3PXP"}], "servicesEncrypted": null, "groups": []}"#
                .utf8)
        let parsed = try TwoFASFormat.parse(data, context: .failingIfAsked())
        XCTAssertEqual(parsed.entries.map(\.label), ["A"])
    }

    func testEncryptedBackupWithAWrongPasswordOrNone() throws {
        try assertWrongPasswordOrNone(
            .twoFAS, ["2fas_authenticator_encrypted.2fas", "2fas_authenticator_encrypted_v4.2fas"], wrong: "Test")
    }

    // MARK: Built files: every kind, groups, notes, damage

    func testBuiltEncryptedBackupCarriesEveryKindGroupsAndNotes() throws {
        let data = try sealed(Fixture.data("twofas.2fas"), password: "pässwörd 🔑")
        let parsed = try TwoFASFormat.parse(data, context: .answering("pässwörd 🔑"))
        var expected = ExpectedAccount.standard(tags: [["Work"]])
        expected.append(
            ExpectedAccount(issuer: "", name: "Only A Service", secret: "MFRGGZDFMZTWQ2LK", note: "no account name"))
        assertEntries(parsed, expected)
    }

    func testDamagedEncryptedBackupsAreRefusedBeforeThePassword() throws {
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: sealed(Fixture.data("twofas.2fas"), password: "pw")) as? [String: Any])
        let parts = try XCTUnwrap(document["servicesEncrypted"] as? String).split(separator: ":").map(String.init)
        let hugeSalt = Data(count: TwoFASFormat.maximumSaltSize + 1).base64EncodedString()
        let damaged: [Any] = [
            parts[0] + ":" + parts[1], parts.joined(separator: ";"), "!!:" + parts[1] + ":" + parts[2],
            [parts[0], hugeSalt, parts[2]].joined(separator: ":"), [parts[0], parts[1], "AAAA"].joined(separator: ":"),
            ["AAAA", parts[1], parts[2]].joined(separator: ":"), 42,
        ]
        let noPrompt = ImportContext.failingIfAsked()
        for value in damaged {
            var file = document
            file["servicesEncrypted"] = value
            XCTAssertThrowsError(
                try TwoFASFormat.parse(JSONSerialization.data(withJSONObject: file), context: noPrompt), "\(value)"
            ) { error in
                guard case .malformed(.twoFAS, _)? = error as? ImportError else { return XCTFail("\(value): \(error)") }
            }
        }
        // A flipped ciphertext bit fails the tag: the file was altered, or the password is wrong.
        var ciphertext = try XCTUnwrap(Data(base64Encoded: parts[0]))
        ciphertext[0] ^= 1
        var file = document
        file["servicesEncrypted"] = [ciphertext.base64EncodedString(), parts[1], parts[2]].joined(separator: ":")
        XCTAssertThrowsError(
            try TwoFASFormat.parse(
                JSONSerialization.data(withJSONObject: file),
                context: .answering("pw"))
        ) { XCTAssertEqual($0 as? ImportError, .wrongPassword(.twoFAS)) }
    }

    func testDecryptedServicesThatAreNotAListAreRefused() throws {
        let plain = Data(#"{"services": {"not": "a list"}, "groups": []}"#.utf8)
        XCTAssertThrowsError(
            try TwoFASFormat.parse(
                sealed(plain, password: "pw"), context: .answering("pw"))
        ) { error in
            XCTAssertEqual(error as? ImportError, .malformed(.twoFAS, "its decrypted services are not a JSON list"))
        }
    }

    /// A plain 2FAS backup sealed as 2FAS seals one: its services encrypted
    /// under PBKDF2-HMAC-SHA-256 (10 000 iterations, a 256-byte salt) and
    /// AES-256-GCM with a 12-byte nonce, the tag appended.
    private func sealed(_ plain: Data, password: String) throws -> Data {
        var document = try XCTUnwrap(JSONSerialization.jsonObject(with: plain) as? [String: Any])
        let services = try JSONSerialization.data(withJSONObject: document["services"] ?? [])
        let salt = Data((0..<256).map { _ in UInt8.random(in: 0...255) })
        let nonce = Data((0..<12).map { _ in UInt8.random(in: 0...255) })
        let key = try PBKDF2.deriveKey(
            password: SecretBytes(utf8: password), salt: salt, iterations: 10_000, hash: .sha256)
        let box = try AESGCM.seal(services, key: key, nonce: nonce)
        document["services"] = []
        document["servicesEncrypted"] = [box.ciphertext + box.tag, salt, nonce].map { $0.base64EncodedString() }
            .joined(separator: ":")
        document["schemaVersion"] = 4
        return try JSONSerialization.data(withJSONObject: document)
    }
}
