import AuthCatCore
import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class ExporterTests: InterchangeTestCase {
    private let accounts = ExpectedAccount.standard(
        tags: [["Work"], ["Bank ✓", "Work"]], notes: ["recovery codes\nin the safe", "", "ü & = ?"])

    /// Export from a full vault, import into an empty one: the same accounts.
    private func roundTrip(
        _ format: ExportFormat, importAs importFormat: ImportFormat, password: SecretBytes? = nil
    ) throws -> (ExportResult, [ExpectedAccount], Vault) {
        let source = try makeVault("source-\(format)")
        try add(source, accounts)
        let result = try Exporter.export(
            Exporter.items(of: source), format: format, vaultID: source.identity.vaultID, password: password)
        XCTAssertEqual(try FormatDetector.detect(result.data), importFormat)
        let target = try makeVault("target-\(format)")
        let context = ImportContext(password: { try XCTUnwrap(password) })
        let outcome = try Importer(vault: target).run(try importFormat.parse(result.data, context: context))
        XCTAssertTrue(outcome.plan.rejections.isEmpty, "\(outcome.plan.rejections)")
        return (result, try contents(of: target), source)
    }

    func testOTPAuthRoundTripIsExact() throws {
        let (result, imported, _) = try roundTrip(.otpauth, importAs: .otpauth)
        XCTAssertEqual(imported, displayOrder(accounts))
        XCTAssertEqual(result.qrTexts.count, 5)
    }

    func testAegisRoundTripIsExact() throws {
        let (_, imported, _) = try roundTrip(.aegis, importAs: .aegis)
        XCTAssertEqual(imported, displayOrder(accounts))
    }

    func testJSONRoundTripIsExactAndKeepsIDs() throws {
        let (result, imported, source) = try roundTrip(.json, importAs: .authcat)
        XCTAssertEqual(imported, displayOrder(accounts))
        let archive = try AuthCatArchive.decode(result.data)
        XCTAssertEqual(archive.kind, .export)
        XCTAssertNil(archive.preferences)
        XCTAssertEqual(archive.accounts.map(\.id), try source.accounts().map(\.id.vaultString))
    }

    func testGoogleRoundTripKeepsWhatGoogleCanHoldAndNamesTheRest() throws {
        let (result, imported, _) = try roundTrip(.google, importAs: .google)
        XCTAssertEqual(result.omitted.map(\.label), ["Steam:gamer", "Ünïcødé Bank:李雷 🐱"])
        XCTAssertEqual(result.exported, 3)
        let expected = accounts.filter { $0.kind != .steam && $0.period == 30 }.map { account -> ExpectedAccount in
            var account = account
            account.tags = []
            account.note = ""
            return account
        }
        XCTAssertEqual(imported, displayOrder(expected))
    }

    func testEncryptedAegisRoundTripIsExactAndOnlyThePasswordOpensIt() throws {
        let password = SecretBytes(utf8: "export password")
        let (result, imported, _) = try roundTrip(.aegis, importAs: .aegis, password: password)
        XCTAssertEqual(imported, displayOrder(accounts))
        let text = String(decoding: result.data, as: UTF8.self)
        XCTAssertFalse(text.contains(accounts[0].secret), "no secret in clear")
        XCTAssertFalse(text.contains("GitHub"), "no name in clear")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: result.data) as? [String: Any])
        let slots = try XCTUnwrap((document["header"] as? [String: Any])?["slots"] as? [[String: Any]])
        XCTAssertEqual(slots.first?["n"] as? Int, 32768, "Aegis's own cost")
        XCTAssertThrowsError(
            try AegisFormat.parse(result.data, context: ImportContext(password: { SecretBytes(utf8: "wrong") }))
        ) { error in
            guard case .wrongPassword(.aegis)? = error as? ImportError else { return XCTFail("\(error)") }
        }
        // Two exports of the same accounts share no salt, nonce or ciphertext.
        let twice = try makeVault("twice")
        try add(twice, accounts)
        let items = try Exporter.items(of: twice)
        let first = try Exporter.export(items, format: .aegis, password: password)
        let second = try Exporter.export(items, format: .aegis, password: password)
        XCTAssertNotEqual(first.data, second.data)
    }

    func testTwoFASRoundTripKeepsTheFirstTagAndLeavesOutWhat2FASCannotHold() throws {
        let (result, imported, _) = try roundTrip(.twoFAS, importAs: .twoFAS)
        XCTAssertEqual(result.omitted, [])
        let expected = accounts.map { account -> ExpectedAccount in
            var account = account
            account.tags = Array(account.tags.prefix(1))
            return account
        }
        XCTAssertEqual(imported, displayOrder(expected))
        let yandex = ExportItem(
            account: account("Yandex", "ivan", otp: OTPParameters(kind: .yandex)), secret: SecretBytes(count: 16),
            pin: SecretBytes(utf8: "1234"))
        let withPIN = try Exporter.export([yandex], format: .twoFAS)
        XCTAssertEqual(withPIN.omitted.map(\.label), ["Yandex:ivan"])
        XCTAssertEqual(withPIN.exported, 0)
        XCTAssertTrue(try TwoFASFormat.parse(withPIN.data, context: ImportContext()).entries.isEmpty)
    }
}
