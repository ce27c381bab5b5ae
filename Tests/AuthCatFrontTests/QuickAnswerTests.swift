import AuthCatCore
import AuthCatEssentials
import AuthCatFront
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import GRDBSQLite
import Glibc
import XCTest

/// What the front answers from a real vault, and when it hands over: its
/// answers must be the full program's, and anything it cannot be sure of goes
/// to authcat-cli.
final class QuickAnswerTests: XCTestCase {
    private var folder: URL!
    private var vault: Vault!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder().url("vault")
        vault = try Vault.openOrCreate(at: VaultLocation(folder: folder), deviceName: "test", clock: ManualClock())
    }

    override func tearDown() {
        vault = nil
    }

    @discardableResult
    private func add(_ issuer: String, _ name: String, _ otp: OTPParameters = OTPParameters()) throws -> Account {
        let draft = AccountDraft(
            issuer: issuer, name: name, otp: otp, secret: SecretBytes(Array("12345678901234567890".utf8)))
        return try vault.write(author: .cli) { try $0.insert(draft) }
    }

    private func reply(_ arguments: [String]) throws -> QuickAnswer.Reply? {
        QuickAnswer.reply(for: try XCTUnwrap(Shortcut(["--home", folder.path] + arguments)), environment: [:])
    }

    func testATOTPCodeIsAnsweredAsTheFullProgramComputesIt() throws {
        let account = try add("GitHub", "alice")
        let expected = try vault.generateCode(for: account, at: Date(timeIntervalSince1970: 59)).code
        guard case .output(let text)? = try reply(["code", "--at", "59", "GitHub:alice"]) else {
            return XCTFail("handed over")
        }
        XCTAssertEqual(
            isatty(STDOUT_FILENO) == 1 ? String(text.split(separator: " ").first ?? "") : text, expected.value)
        XCTAssertEqual(expected.value, "287082")
    }

    func testSeveralOrNoMatchesAreTheFullProgramsErrors() throws {
        try add("Tiny", "a")
        try add("Tiny2", "b")
        try add("Other", "tinyish")
        for query in ["tin", "nobody"] {
            var expected: VaultError?
            XCTAssertThrowsError(try vault.account(matching: query)) { expected = $0 as? VaultError }
            XCTAssertEqual(try reply(["code", query]), expected.map(QuickAnswer.Reply.failure), query)
        }
        guard case .output? = try reply(["code", "--at", "59", "tiny"]) else {
            return XCTFail("an exact issuer wins, as in authcat-cli")
        }
    }

    func testListsAreTheFullProgramsBytes() throws {
        try add("GitHub", "alice")
        try add("", "ci", OTPParameters(kind: .hotp, counter: 7))
        let accounts = try vault.accounts()
        XCTAssertEqual(try reply(["list", "--json"]), .output(AccountListJSON.text(accounts)))
        XCTAssertEqual(
            try reply(["list"]), .output(TextTable.lines(accounts.map(AccountRow.cells)).joined(separator: "\n")))
    }

    /// The front trusts a key only once it opens the vault's key check, as
    /// authcat-cli does (docs/FORMAT.md §2.1): a key that does not is
    /// authcat-cli's to report, even when it would open the secret.
    func testAKeyThatFailsTheVaultsKeyCheckIsHandedOver() throws {
        try add("GitHub", "alice")
        let location = VaultLocation(folder: folder)
        guard case .output? = try reply(["code", "GitHub:alice"]) else {
            return XCTFail("the front answers while the key checks")
        }
        // The vault row's check, replaced by one sealed under another key.
        let foreign = try VaultKeyCheck(
            vaultID: vault.identity.vaultID, key: try SecretBytes.random(count: AEAD.keySize))
        var connection: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(location.databaseURL.path, &connection, SQLITE_OPEN_READWRITE, nil), SQLITE_OK)
        var statement: OpaquePointer?
        XCTAssertEqual(sqlite3_prepare_v2(connection, "UPDATE vault SET keyCheck = ?", -1, &statement, nil), SQLITE_OK)
        let status = foreign.sealed.withUnsafeBytes { bytes -> Int32 in
            sqlite3_bind_blob(statement, 1, bytes.baseAddress, Int32(bytes.count), nil)
            return sqlite3_step(statement)
        }
        XCTAssertEqual(status, SQLITE_DONE)
        sqlite3_finalize(statement)
        sqlite3_close(connection)
        XCTAssertNil(try reply(["code", "GitHub:alice"]), "the secret would open, but the key does not check")
        let reopened = try Vault.open(at: location)
        XCTAssertThrowsError(try reopened.generateCode(for: try reopened.account(matching: "GitHub:alice"), at: Date()))
        {
            XCTAssertEqual(
                $0 as? VaultStoreError, .keyDoesNotMatch(location.keyFileURL.path), "what authcat-cli then says")
        }
        XCTAssertEqual(try reply(["code", "nobody"]), .failure(.notFound("nobody")), "naming no account needs no key")
        XCTAssertNotNil(try reply(["list"]), "nor does listing")
    }

    func testAKeyFileOfAnotherVaultIsHandedOver() throws {
        try add("GitHub", "alice")
        let other = folder.appendingPathExtension("other")
        defer { try? FileManager.default.removeItem(at: other) }
        _ = try Vault.openOrCreate(at: VaultLocation(folder: other), deviceName: "other", clock: ManualClock())
        let keyFile = VaultLocation(folder: folder).keyFileURL
        try FileManager.default.removeItem(at: keyFile)
        try FileManager.default.copyItem(at: VaultLocation(folder: other).keyFileURL, to: keyFile)
        XCTAssertNil(try reply(["code", "GitHub:alice"]))
    }

    func testWhatTheFrontCannotBeSureOfIsHandedOver() throws {
        try add("Bank", "counter", OTPParameters(kind: .hotp))
        let motp = AccountDraft(
            issuer: "PfSense", name: "jimmy", otp: OTPParameters(kind: .motp),
            secret: try Base16.decode("e3152afee62599c8"), pin: SecretBytes(utf8: "1234"))
        try vault.write(author: .cli) { try $0.insert(motp) }
        XCTAssertNil(try reply(["code", "counter"]), "HOTP writes the vault")
        XCTAssertNil(try reply(["code", "jimmy"]), "mOTP needs the sealed PIN, which the front does not read")
        XCTAssertNil(try reply(["code", "--at", "-5", "Bank:counter"]), "a time before 1970 is authcat-cli's error")
        XCTAssertEqual(try reply(["list", "--json"]).map { _ in true }, true)
        XCTAssertNil(
            QuickAnswer.reply(
                for: try XCTUnwrap(Shortcut(["--home", folder.path + "-missing", "list"])), environment: [:]),
            "no vault: authcat-cli says so")
        try Data().write(to: VaultLocation(folder: folder).noticeFileURL)
        XCTAssertNil(try reply(["list"]), "a sync notice to show")
        try FileManager.default.removeItem(at: VaultLocation(folder: folder).noticeFileURL)
        chmod(folder.path, 0o755)
        XCTAssertNil(try reply(["list"]), "a folder others can read: authcat-cli warns")
    }

    func testAVaultOfAnotherUserIsHandedOver() throws {
        try add("GitHub", "alice")
        XCTAssertNotNil(try reply(["code", "alice"]))
        guard geteuid() == 0 else {
            throw XCTSkip("giving a file to another user needs root (CI runs the tests as root)")
        }
        for name in ["vault.key", "vault.sqlite", ""] {
            let path = name.isEmpty ? folder.path : folder.appendingPathComponent(name).path
            XCTAssertEqual(lchown(path, 4242, 4242), 0)
            XCTAssertNil(try reply(["code", "alice"]), "\(name) of another user: authcat-cli refuses it")
            XCTAssertEqual(lchown(path, 0, 0), 0)
        }
        XCTAssertNotNil(try reply(["code", "alice"]))
    }
}
