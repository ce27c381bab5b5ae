import AuthCatCore
import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class ImporterTests: InterchangeTestCase {
    private func parsedOTPAuth(_ lines: [String]) throws -> ParsedImport {
        try OTPAuthFormat.parse(Data(lines.joined(separator: "\n").utf8), context: ImportContext())
    }

    func testImportIntoAnEmptyVaultIsOneTransactionByImport() throws {
        let vault = try makeVault()
        let parsed = try AegisFormat.parse(Fixture.data("aegis_plain.json"), context: ImportContext())
        let outcome = try Importer(vault: vault).run(parsed)
        // Five accounts of the standard kinds and a Yandex one with its PIN.
        XCTAssertEqual(outcome.added.count, 6)
        XCTAssertEqual(try contents(of: vault), displayOrder(parsed.entries.map(ExpectedAccount.init)))
        let history = try vault.history()
        XCTAssertEqual(history.count, 1)
        XCTAssertEqual(history.first?.author, .import)
        XCTAssertEqual(history.first?.changes.count, 6)
        XCTAssertEqual(outcome.summary.added, 6)
        XCTAssertEqual(outcome.summary.rejected, 0)
        let yandex = try XCTUnwrap(try vault.accounts().first { $0.otp.kind == .yandex })
        XCTAssertEqual(try vault.pin(for: yandex.id), SecretBytes(utf8: "1234"))
    }

    func testIdenticalEntriesAreSkippedAndConflictsRejected() throws {
        let vault = try makeVault()
        try add(
            vault,
            [
                ExpectedAccount(issuer: "GitHub", name: "alice", secret: "JBSWY3DPEHPK3PXP"),
                ExpectedAccount(issuer: "Bank", name: "bob", secret: "JBSWY3DPEHPK3PXP"),
            ])
        let parsed = try parsedOTPAuth([
            "otpauth://totp/github:ALICE?secret=JBSWY3DPEHPK3PXP",
            "otpauth://totp/Bank:bob?secret=MFRGGZDFMZTWQ2LK",
            "otpauth://totp/New:carol?secret=MFRGGZDFMZTWQ2LK",
            "otpauth://totp/New:Carol?secret=MFRGGZDFMZTWQ2LK",
            "otpauth://totp/New:CAROL?secret=JBSWY3DPEHPK3PXP",
        ])
        let outcome = try Importer(vault: vault).run(parsed)
        XCTAssertEqual(outcome.added.map(\.label), ["New:carol"])
        XCTAssertEqual(
            outcome.plan.skipped.map(\.description),
            [
                "line 1 (github:ALICE): already in the vault", "line 4 (New:Carol): same as line 3",
            ])
        XCTAssertEqual(outcome.plan.rejections.map(\.position.description), ["line 2", "line 5"])
        XCTAssertEqual(outcome.plan.rejections.map(\.kind), ["conflict", "conflict"])
        XCTAssertTrue(outcome.plan.rejections[0].message.contains("different secret"))
        let bank = try vault.account(matching: "Bank:bob")
        XCTAssertEqual(
            Base32.encode(try vault.secret(for: bank.id)), "JBSWY3DPEHPK3PXP", "the existing account is left alone")
    }

    func testImportingTheSameFileTwiceAddsNothing() throws {
        let vault = try makeVault()
        let parsed = try TwoFASFormat.parse(Fixture.data("twofas.2fas"), context: ImportContext())
        try Importer(vault: vault).run(parsed)
        let before = try vault.latestHistoryNumber()
        let second = try Importer(vault: vault).run(parsed)
        XCTAssertTrue(second.added.isEmpty)
        XCTAssertEqual(second.plan.skipped.count, 6)
        XCTAssertEqual(try vault.latestHistoryNumber(), before, "nothing to add writes no history")
    }

    func testInvalidEntriesRefuseTheWholeImportUnlessSkipped() throws {
        let vault = try makeVault()
        let parsed = try parsedOTPAuth(["otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP", "otpauth://totp/B:b?secret=1"])
        let before = try snapshot(vault)
        let refused = try Importer(vault: vault).run(parsed)
        guard case .invalidEntries(let rejections)? = refused.plan.refusal else {
            return XCTFail("not refused: \(refused.plan)")
        }
        XCTAssertEqual(rejections.map(\.position.description), ["line 2"])
        XCTAssertTrue("\(ImportError.invalidEntries(rejections))".contains("nothing was imported"))
        XCTAssertEqual(refused.added.count, 0)
        XCTAssertEqual(try snapshot(vault), before)
        let outcome = try Importer(vault: vault).run(parsed, skipInvalid: true)
        XCTAssertEqual(outcome.added.map(\.label), ["A:a"])
    }

    func testDryRunWritesNothingAndShowsThePlan() throws {
        let vault = try makeVault()
        let parsed = try AndOTPFormat.parse(Fixture.data("andotp.json"), context: ImportContext())
        let before = try snapshot(vault)
        let outcome = try Importer(vault: vault).run(parsed, dryRun: true)
        XCTAssertTrue(outcome.dryRun)
        XCTAssertEqual(outcome.plan.additions.count, 5)
        XCTAssertEqual(outcome.summary.added, 5)
        XCTAssertEqual(try snapshot(vault), before)
        XCTAssertTrue(try vault.accounts().isEmpty)
    }

    func testPlanForAVaultNotYetCreated() throws {
        let parsed = try parsedOTPAuth([
            "otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP", "otpauth://totp/a:A?secret=JBSWY3DPEHPK3PXP",
            "otpauth://totp/B:b?secret=1",
        ])
        let plan = try Importer.planForEmptyVault(parsed)
        XCTAssertEqual(plan.additions.map(\.label), ["A:a"])
        XCTAssertEqual(plan.skipped.count, 1)
        XCTAssertNotNil(plan.refusal)
        XCTAssertFalse(plan.changesVault)
        XCTAssertTrue(try Importer.planForEmptyVault(parsed, skipInvalid: true).changesVault)
    }

    func testAnAccountAddedAfterTheDryRunIsSeenByTheImport() throws {
        let vault = try makeVault()
        let parsed = try parsedOTPAuth([
            "otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP", "otpauth://totp/B:b?secret=JBSWY3DPEHPK3PXP",
        ])
        XCTAssertEqual(try Importer(vault: vault).run(parsed, dryRun: true).plan.additions.count, 2)
        // Another process adds B with another secret before the real import.
        _ = try add(vault, [ExpectedAccount(issuer: "B", name: "b", secret: "MFRGGZDFMZTWQ2LK")])
        let outcome = try Importer(vault: vault).run(parsed)
        XCTAssertEqual(outcome.added.map(\.label), ["A:a"])
        XCTAssertEqual(outcome.plan.rejections.map(\.label), ["B:b"])
        XCTAssertEqual(try vault.accounts().map(\.label), ["A:a", "B:b"])
        XCTAssertEqual(
            try vault.secret(for: try vault.account(matching: "B:b").id), try Base32.decode("MFRGGZDFMZTWQ2LK"))
    }

    func testAnAccountRemovedAfterTheDryRunIsImportedAgain() throws {
        let vault = try makeVault()
        _ = try add(vault, [ExpectedAccount(issuer: "A", name: "a", secret: "JBSWY3DPEHPK3PXP")])
        let parsed = try parsedOTPAuth(["otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP"])
        XCTAssertEqual(try Importer(vault: vault).run(parsed, dryRun: true).plan.skipped.count, 1)
        let id = try vault.account(matching: "A:a").id
        try vault.write(author: .cli) { try $0.delete(id) }
        let outcome = try Importer(vault: vault).run(parsed)
        XCTAssertEqual(outcome.added.map(\.label), ["A:a"])
        XCTAssertEqual(try vault.accounts().map(\.label), ["A:a"])
    }

    func testRestoreKeepsIDsWhenFreeAndAddsOnlyMissingPreferences() throws {
        let source = try makeVault("source")
        let accounts = try add(source, Array(ExpectedAccount.standard.prefix(2)))
        try source.write(author: .cli) {
            try $0.setPreference("theme", to: "dark")
            try $0.setPreference("sort", to: "issuer")
        }
        let parsed = try AuthCatFormat.parsed(VaultBackup.archive(of: source))

        let target = try makeVault("target")
        try target.write(author: .cli) { try $0.setPreference("theme", to: "light") }
        let outcome = try Importer(vault: target, author: .restore).run(parsed)
        XCTAssertEqual(Set(try target.accounts().map(\.id)), Set(accounts.map(\.id)))
        XCTAssertEqual(try target.preferences(), ["theme": "light", "sort": "issuer"])
        XCTAssertEqual(outcome.plan.preferencesKept, ["theme"])
        XCTAssertEqual(try target.history().first?.author, .restore)
    }
}
