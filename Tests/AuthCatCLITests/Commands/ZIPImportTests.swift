import Foundation
import XCTest

/// Importing the exports that are ZIP archives end to end, through the built
/// `authcat-cli` (which opens libarchive only then): the accounts seen
/// through `list --json`, a damaged or hostile archive leaving the vault as
/// it was with a one-line error.
final class ZIPImportTests: InterchangeTests {
    func testOnePasswordExport() throws {
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        let export = try Data(contentsOf: URL(fileURLWithPath: fixture("onepassword.1pux")))
        let cases = [
            (try scratch("cut.1pux", export.prefix(export.count - 10)), "its ZIP archive is damaged or truncated"),
            (fixture("zip_bomb.zip"), "holds more than its header says (a zip bomb?)"),
            (fixture("zip_dotdot.zip"), "a path with '..'"),
        ]
        for (file, why) in cases {
            assertOneLineError(try authcat.runAsProcess(["import", file]), containing: why, status: 1)
        }
        assertOneLineError(
            try authcat.runAsProcess(["import", fixture("zip_bomb.zip"), "--format", "1password"]),
            containing: "this is not a valid 1Password export: its file 'export.data' holds more", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)

        let output = try authcat.runAsProcess(["import", fixture("onepassword.1pux")])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(
            output.stdout.hasPrefix("added 7 accounts from the 1Password export; skipped 0, rejected 3"), output.stdout)
        XCTAssertTrue(output.stdout.contains("vault 1, item 6 (Old): it is archived in 1Password"), output.stdout)
        let list = try succeed(["list", "--json"])
        let accounts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]])
        let names = accounts.map { "\($0["issuer"] as? String ?? ""):\($0["name"] as? String ?? "")" }.sorted()
        XCTAssertEqual(
            names,
            [
                ":existing", "Example:sha512", "GitHub:alice@example.com", "HOTP Corp:bob", "Twin:carol",
                "Twin:carol (backup)", "login.example.org:frank", "Ünïcødé Bank:李雷 🐱",
            ]
            .sorted())
        XCTAssertFalse(list.contains("JBSWY3DPEHPK3PXP"), "list --json shows no secret")
    }

    func testProtonPassExport() throws {
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        let export = try Data(contentsOf: URL(fileURLWithPath: fixture("proton_pass.zip")))
        let cut = try scratch("cut.zip", export.prefix(export.count / 2))
        assertOneLineError(
            try authcat.runAsProcess(["import", cut, "--format", "protonpass"]),
            containing: "this is not a valid Proton Pass export: its ZIP archive is damaged or truncated", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)

        let output = try succeed(["import", fixture("proton_pass.zip")])
        XCTAssertTrue(
            output.hasPrefix("added 6 accounts from the Proton Pass export; skipped 0, rejected 1"), output)
        let accounts = try accountsWithoutIDs(home: authcat.home.path)
        XCTAssertEqual(
            accounts.map { "\($0["issuer"] ?? ""):\($0["name"] ?? "")" }.sorted(),
            [
                "<null>:existing", "Example:sha512", "GitHub:alice@example.com", "HOTP Corp:bob", "Twin:carol",
                "Twin:carol (backup)", "Ünïcødé Bank:李雷 🐱",
            ]
            .sorted())
        XCTAssertTrue(accounts.first { $0["name"] == "carol" }?["tags"]?.contains("Personal") ?? false, "\(accounts)")
    }
}
