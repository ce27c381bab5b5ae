import AuthCatInterchange
import Foundation
import XCTest

/// Importing the encrypted backups and databases of other apps end to end:
/// the password from `AUTHCAT_IMPORT_PASSPHRASE_FILE`, the accounts seen
/// through `list --json`, a wrong password leaving the vault as it was.
final class AppImportTests: InterchangeTests {
    func testEncryptedFreeOTPBackup() throws {
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        let backup = fixture("freeotp_v2_api34.xml")
        let wrong = try scratch("wrong", "tesT\n")
        assertOneLineError(
            try authcat.run(["import", backup], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": wrong]),
            containing: "the password does not open this FreeOTP backup", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
        let right = try scratch("right", "test\n")
        let output = try succeed(["import", backup], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": right])
        XCTAssertTrue(output.hasPrefix("added 6 accounts from the FreeOTP backup; skipped 0, rejected 0"), output)
        let list = try succeed(["list", "--json"])
        let accounts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]])
        let names = accounts.map { "\($0["issuer"] as? String ?? ""):\($0["name"] as? String ?? "")" }.sorted()
        XCTAssertEqual(
            names,
            [
                "Air Canada:Benjamin", "Airbnb:Elijah", "Deno:Mason", "Issuu:James", "SPDX:James", "WWE:Mason",
                ":existing",
            ]
            .sorted())
        XCTAssertFalse(list.contains("5VAML3X35THCEBVRLV24CGBKOY"), "list --json shows no secret")
    }

    func testEncryptedSteamDesktopAuthenticatorFolder() throws {
        let right = try scratch("right", "test-password\n")
        let wrong = try scratch("wrong", "nope\n")
        assertOneLineError(
            try authcat.run(
                ["import", fixture("steam_sda/manifest.json")], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": wrong]),
            containing: "the password does not open this Steam Desktop Authenticator file", status: 1)
        let single = try succeed(
            ["import", fixture("steam_sda/1234.maFile"), "--format", "steam"],
            environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": right])
        XCTAssertTrue(single.hasPrefix("added 1 account from the Steam Desktop Authenticator file"), single)
        let output = try succeed(
            ["import", fixture("steam_sda/manifest.json")], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": right])
        XCTAssertTrue(output.hasPrefix("added 1 account from the Steam Desktop Authenticator file; skipped 1"), output)
        let accounts = try accountsWithoutIDs(home: authcat.home.path)
        XCTAssertEqual(accounts.map { $0["name"] ?? "" }.sorted(), ["Sophia", "Ünïcødé 🐱"])
    }

    func testAuthenticatorDatabaseFromARootedPhone() throws {
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        let database = try Data(contentsOf: URL(fileURLWithPath: fixture("google_authenticator.sqlite")))
        let damaged = try scratch("damaged.sqlite", database.prefix(database.count / 2))
        assertOneLineError(
            try authcat.run(["import", damaged, "--format", "google-db"]),
            containing: "this is not a valid Google Authenticator database", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
        let output = try succeed(["import", fixture("microsoft_authenticator.sqlite")])
        XCTAssertTrue(
            output.hasPrefix("added 7 accounts from the Microsoft Authenticator database; skipped 0, rejected 0"),
            output)
        let accounts = try accountsWithoutIDs(home: authcat.home.path)
        XCTAssertEqual(
            accounts.map { "\($0["issuer"] ?? ""):\($0["name"] ?? "")" }.sorted(),
            [
                "<null>:existing", "Air Canada:Benjamin", "Airbnb:Elijah", "Boeing:Sophia", "Deno:Mason", "Issuu:James",
                "SPDX:James", "WWE:Mason",
            ])
    }
}
