import AuthCatCore
import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

/// `Follower` on a vault of its own: how entries are paired with what the
/// file brought, and how each field follows (the command's tests run the
/// whole flow through files and processes).
final class FollowerTests: InterchangeTestCase {
    private func parsed(_ lines: [String]) throws -> ParsedImport {
        try OTPAuthFormat.parse(Data(lines.map { $0 + "\n" }.joined().utf8), context: ImportContext())
    }

    private func start(_ vault: Vault, _ lines: [String]) throws -> FollowedFile {
        try Follower.start(
            parsed(lines), digest: Data([1]), name: "phone", path: "/nowhere/phone.txt", password: nil, in: vault
        ).0
    }

    private func apply(_ vault: Vault, _ lines: [String], digest: UInt8 = 2) throws -> FollowReport {
        let file = try vault.followedFile(named: "phone")
        return try Follower(vault: vault, file: file).apply(parsed(lines), digest: Data([digest]))
    }

    func testAnHOTPCounterOnlyMovesForward() throws {
        let vault = try makeVault()
        _ = try start(vault, ["otpauth://hotp/Bank:me?secret=JBSWY3DPEHPK3PXP&counter=5"])
        // Codes used here move the counter on; an older counter in the file does not move it back.
        _ = try vault.write(author: .cli) { writer in
            let account = try writer.account(matching: "Bank:me")
            var otp = account.otp
            otp.counter = 9
            return try writer.update(account.id, AccountEdit(otp: otp))
        }
        let behind = try apply(vault, ["otpauth://hotp/Bank:me?secret=JBSWY3DPEHPK3PXP&counter=7"])
        XCTAssertEqual(behind.updated, [])
        XCTAssertEqual(try vault.account(matching: "Bank:me").otp.counter, 9)
        let ahead = try apply(vault, ["otpauth://hotp/Bank:me?secret=JBSWY3DPEHPK3PXP&counter=12"], digest: 3)
        XCTAssertEqual(ahead.updated.map(\.fields), [["counter"]])
        XCTAssertEqual(try vault.account(matching: "Bank:me").otp.counter, 12)
    }

    func testParametersAndTheSecretFollowTheFileAndHistoryNamesIt() throws {
        let vault = try makeVault()
        _ = try start(vault, ["otpauth://totp/Mail:me?secret=JBSWY3DPEHPK3PXP"])
        let report = try apply(vault, ["otpauth://totp/Mail:me?secret=KRSXG5BAMFRGGZDF&digits=8&algorithm=SHA256"])
        XCTAssertEqual(report.updated.first?.fields.sorted(), ["algorithm", "digits", "secret"])
        let account = try vault.account(matching: "Mail:me")
        XCTAssertEqual(account.otp.digits, 8)
        XCTAssertEqual(account.otp.algorithm, .sha256)
        XCTAssertEqual(try vault.secret(for: account.id), try Base32.decode("KRSXG5BAMFRGGZDF"))
        let newest = try XCTUnwrap(try vault.history().last)
        XCTAssertEqual(newest.author, .follow)
        XCTAssertEqual(newest.source, "phone")
    }

    func testARenameThatClashesWithAnAccountHereIsRefusedAndTheRestApplied() throws {
        let vault = try makeVault()
        _ = try add(vault, [ExpectedAccount(issuer: "Mail", name: "taken", secret: "MFRGGZDFMZTWQ2LK")])
        _ = try start(
            vault, ["otpauth://totp/Mail:me?secret=JBSWY3DPEHPK3PXP", "otpauth://totp/Web:you?secret=KRSXG5BAMFRGGZDF"])
        let report = try apply(
            vault,
            ["otpauth://totp/Mail:taken?secret=JBSWY3DPEHPK3PXP", "otpauth://totp/Web:you2?secret=KRSXG5BAMFRGGZDF"])
        XCTAssertEqual(report.rejections.map(\.position.number), [1])
        XCTAssertEqual(report.updated.map(\.label), ["Web:you2"])
        XCTAssertEqual(
            try vault.accounts().map(\.label).sorted(), ["Mail:me", "Mail:taken", "Web:you2"],
            "the clash changed nothing; the other entry was applied")
        XCTAssertEqual(try vault.history().last?.changes.count, 1, "the refused change left no history")
    }

    func testAnAccountRemovedHereStaysRemovedAndAnotherFilesAccountsAreNotAdopted() throws {
        let vault = try makeVault()
        _ = try start(vault, ["otpauth://totp/Mail:me?secret=JBSWY3DPEHPK3PXP"])
        _ = try vault.write(author: .cli) { writer in try writer.delete(writer.account(matching: "Mail:me").id) }
        let report = try apply(vault, ["otpauth://totp/Mail:me?secret=JBSWY3DPEHPK3PXP&digits=8"])
        XCTAssertEqual(report.keptRemoved, ["Mail:me"])
        XCTAssertTrue(try vault.accounts().isEmpty)

        let other = try vault.write(author: .cli) { writer in
            try writer.addFollowedFile(name: "tablet", path: "/nowhere/tablet.txt", format: "otpauth", password: nil)
        }
        let second = try Follower(vault: vault, file: other).apply(
            parsed(["otpauth://totp/Web:you?secret=KRSXG5BAMFRGGZDF"]), digest: Data([9]))
        XCTAssertEqual(second.added, ["Web:you"])
        let third = try apply(vault, ["otpauth://totp/Web:you?secret=KRSXG5BAMFRGGZDF"], digest: 4)
        XCTAssertEqual(third.adopted, [], "an account another followed file brought is that file's")
        XCTAssertEqual(third.rejections.count, 1)
    }
}
