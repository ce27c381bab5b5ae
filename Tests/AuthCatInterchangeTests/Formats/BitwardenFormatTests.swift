import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class BitwardenFormatTests: XCTestCase {
    func testItemsWithTOTPBecomeAccounts() throws {
        let parsed = try BitwardenFormat.parse(Fixture.data("bitwarden.json"), context: ImportContext())
        var expected = ExpectedAccount.standard(tags: [["Work"]], notes: ["recovery codes in the safe"])
        expected.append(ExpectedAccount(issuer: "Plain Secret", name: "carol", secret: "MFRGGZDFMZTWQ2LK"))
        assertEntries(parsed, expected)
        XCTAssertEqual(parsed.entries.map(\.position.description).last, "item 6")
        XCTAssertEqual(parsed.warnings, ["2 items have no TOTP secret and were ignored"])
    }

    func testBadTOTPValues() throws {
        let data = Data(
            #"{"items": [{"name": "A", "login": {"totp": 12}}, {"name": "B", "login": {"totp": "otpauth://totp/B?secret=1"}}]}"#
                .utf8)
        let parsed = try BitwardenFormat.parse(data, context: ImportContext())
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["item 1", "item 2"])
        XCTAssertEqual(parsed.rejections.first?.message, "field 'login.totp' should be a string, not a number")
    }

    // MARK: Password-protected exports (made by make_bitwarden_encrypted.py; password "test-password")

    private let password = ImportContext.answering("test-password")
    private let noPrompt = ImportContext.failingIfAsked()

    func testPasswordProtectedExportsWithPBKDF2AndArgon2idOfFourLanes() throws {
        let plain = try BitwardenFormat.parse(Fixture.data("bitwarden.json"), context: ImportContext())
        for name in ["bitwarden_encrypted_pbkdf2.json", "bitwarden_encrypted_argon2id.json"] {
            let parsed = try BitwardenFormat.parse(Fixture.data(name), context: password)
            assertEntries(parsed, plain.entries.map(ExpectedAccount.init))
            XCTAssertEqual(parsed.entries.count, 6, name)
            XCTAssertEqual(parsed.warnings, plain.warnings, name)
        }
    }

    func testWrongPasswordOrNone() throws {
        try assertWrongPasswordOrNone(
            .bitwarden, ["bitwarden_encrypted_pbkdf2.json", "bitwarden_encrypted_argon2id.json"], wrong: "Test-password"
        )
    }

    func testAccountRestrictedExportIsExplained() {
        let data = Data(#"{"encrypted": true, "encKeyValidation_DO_NOT_EDIT": "2.x", "data": "2.y"}"#.utf8)
        XCTAssertThrowsError(try BitwardenFormat.parse(data, context: noPrompt)) { error in
            guard case .encryptedUnsupported(.bitwarden, _)? = error as? ImportError else { return XCTFail("\(error)") }
        }
    }

    /// Costs beyond the bounds are refused by name before the password is
    /// asked for; parameters no Bitwarden writes, as malformed.
    func testHostileKeyDerivationsAreRefusedBeforeThePassword() throws {
        let limits: [([String: Any], KeyDerivationLimitError.Demand)] = [
            (["kdfType": 0, "kdfIterations": 10_000_001], .iterations(10_000_001, allowed: 10_000_000)),
            (["kdfType": 0, "kdfIterations": 1 << 52], .iterations(1 << 52, allowed: 10_000_000)),
            (
                ["kdfType": 1, "kdfIterations": 3, "kdfMemory": 1025, "kdfParallelism": 4],
                .memory(1025 << 20, allowed: 1 << 30)
            ),
            (
                ["kdfType": 1, "kdfIterations": 3, "kdfMemory": 1 << 52, "kdfParallelism": 4],
                .memory(.max, allowed: 1 << 30)
            ),
            (["kdfType": 1, "kdfIterations": 17, "kdfMemory": 1024, "kdfParallelism": 4], .passes(17, allowed: 16)),
            (
                ["kdfType": 1, "kdfIterations": 1025, "kdfMemory": 16, "kdfParallelism": 4],
                .passes(1025, allowed: 1024)
            ),
        ]
        for (fields, demand) in limits {
            XCTAssertThrowsError(try BitwardenFormat.parse(changed(fields), context: noPrompt), "\(fields)") {
                XCTAssertEqual(
                    $0 as? KeyDerivationLimitError,
                    KeyDerivationLimitError(source: "the Bitwarden export", demand: demand))
            }
        }
        let malformed: [[String: Any]] = [
            ["kdfType": 2], ["kdfType": "0"], ["kdfIterations": 0], ["kdfIterations": -5], ["kdfIterations": 1.5],
            ["kdfType": 1, "kdfIterations": 3, "kdfMemory": 16, "kdfParallelism": 17],
            ["kdfType": 1, "kdfIterations": 3, "kdfMemory": 16, "kdfParallelism": 0],
            ["kdfType": 1, "kdfIterations": 3, "kdfMemory": 0, "kdfParallelism": 1],
            ["kdfType": 1, "kdfIterations": 3, "kdfParallelism": 1], ["salt": ""], ["salt": 7],
        ]
        for fields in malformed {
            XCTAssertThrowsError(try BitwardenFormat.parse(changed(fields), context: noPrompt), "\(fields)") { error in
                guard case .malformed(.bitwarden, _)? = error as? ImportError else {
                    return XCTFail("\(fields): \(error)")
                }
            }
        }
    }

    func testDamagedEncryptedStrings() throws {
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Fixture.data("bitwarden_encrypted_pbkdf2.json")) as? [String: Any])
        let data = try XCTUnwrap(document["data"] as? String)
        let parts = data.dropFirst(2).split(separator: "|").map(String.init)
        let damaged: [Any] = [
            "0." + data.dropFirst(2), String(data.dropLast(10)), "2." + parts[0] + "|" + parts[1],
            "2.AAAA|" + parts[1] + "|" + parts[2], "2." + parts[0] + "|AAAA|" + parts[2],
            "2." + parts[0] + "|" + parts[1] + "|AAAA", "2." + parts[0] + "||" + parts[2], 12, NSNull(),
        ]
        for value in damaged {
            XCTAssertThrowsError(try BitwardenFormat.parse(changed(["data": value]), context: noPrompt), "\(value)") {
                error in
                guard case .malformed(.bitwarden, _)? = error as? ImportError else {
                    return XCTFail("\(value): \(error)")
                }
            }
        }
        // A flipped ciphertext bit fails the MAC, as a wrong password does.
        var ciphertext = try XCTUnwrap(Data(base64Encoded: parts[1]))
        ciphertext[5] ^= 1
        let altered = "2." + [parts[0], ciphertext.base64EncodedString(), parts[2]].joined(separator: "|")
        XCTAssertThrowsError(try BitwardenFormat.parse(changed(["data": altered]), context: password)) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.bitwarden))
        }
    }

    /// The PBKDF2 fixture with `fields` replaced.
    private func changed(_ fields: [String: Any]) throws -> Data {
        var document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Fixture.data("bitwarden_encrypted_pbkdf2.json")) as? [String: Any])
        if fields["kdfType"] as? Int == 1 { document["kdfMemory"] = nil }
        document.merge(fields) { $1 }
        return try JSONSerialization.data(withJSONObject: document)
    }
}
