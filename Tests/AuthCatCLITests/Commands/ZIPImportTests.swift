import Foundation
import XCTest

/// Importing the exports that are ZIP archives end to end, through the built
/// `authcat-cli` (which opens libarchive only then): the accounts seen
/// through `list --json`, a damaged or hostile archive leaving the vault as
/// it was with a one-line error.
final class ZIPImportTests: InterchangeTests {
    override func tearDown() {
        // The gpg agent a sealed export's test started, if any.
        let gnupg = authcat.root.appendingPathComponent("gnupg").path
        if FileManager.default.fileExists(atPath: gnupg) {
            XCTAssertEqual(try authcat.shell("gpgconf --kill gpg-agent", environment: ["GNUPGHOME": gnupg]).status, 0)
        }
        super.tearDown()
    }

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

    /// Proton Pass's encrypted export, sealed here by gpg as Proton Pass seals
    /// it (OpenPGP, a passphrase), opened by the user's gpg with the
    /// passphrase on its standard input.
    func testSealedProtonPassExport() throws {
        authcat.environment["GNUPGHOME"] = authcat.root.appendingPathComponent("gnupg").path
        let right = try scratch("right", "correct horse\n")
        let zip = fixture("proton_pass.zip")
        let sealed = try authcat.shell(
            """
            mkdir -m 700 gnupg
            gpg --batch --quiet --pinentry-mode loopback --passphrase-file right --symmetric -o export.pgp '\(zip)'
            """)
        XCTAssertEqual(sealed.status, 0, sealed.stderr)
        let export = authcat.root.appendingPathComponent("export.pgp").path
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        let wrong = try scratch("wrong", "correct horse battery\n")
        assertOneLineError(
            try authcat.run(["import", export], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": wrong]),
            containing: "the password does not open this Proton Pass export", status: 1)
        assertOneLineError(
            try authcat.run(["import", export]), containing: "AUTHCAT_IMPORT_PASSPHRASE_FILE", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
        // Larger than one pipe's room: refused with the command that opens it, before gpg runs.
        let large = try authcat.shell(
            """
            head -c 1100000 /dev/urandom > large
            gpg --batch --quiet --pinentry-mode loopback --passphrase-file right --compress-algo none \
                --symmetric -o large.pgp large
            """)
        XCTAssertEqual(large.status, 0, large.stderr)
        assertOneLineError(
            try authcat.run(
                ["import", authcat.root.appendingPathComponent("large.pgp").path, "--format", "protonpass"],
                environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": right]),
            containing: "decrypt it first: gpg --decrypt", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)

        let output = try succeed(["import", export], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": right])
        XCTAssertTrue(output.hasPrefix("added 6 accounts from the Proton Pass export; skipped 0, rejected 1"), output)
        let list = try succeed(["list", "--json"])
        XCTAssertTrue(list.contains("carol (backup)"), list)
        XCTAssertFalse(list.contains("JBSWY3DPEHPK3PXP"), "list --json shows no secret")
    }
}
