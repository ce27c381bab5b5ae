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
        _ format: ExportFormat, importAs importFormat: ImportFormat
    ) throws -> (ExportResult, [ExpectedAccount], Vault) {
        let source = try makeVault("source-\(format)")
        try add(source, accounts)
        let result = try Exporter.export(Exporter.items(of: source), format: format, vaultID: source.identity.vaultID)
        XCTAssertEqual(try FormatDetector.detect(result.data), importFormat)
        let target = try makeVault("target-\(format)")
        let outcome = try Importer(vault: target).run(try importFormat.parse(result.data))
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
}
