import Foundation
import XCTest

/// `authcat import` of a real password store, made by pass and pass-otp
/// with a throwaway GnuPG key (no passphrase, so no pinentry) and decrypted
/// by the real gpg; and a gopass-style store encrypted with age.
final class PassStoreImportTests: InterchangeTests {
    private var store: String { authcat.root.appendingPathComponent("store").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        authcat.environment["GNUPGHOME"] = authcat.root.appendingPathComponent("gnupg").path
        // Secrets go to pass on its standard input, as a user types them.
        try authcat.shell(
            """
            export PASSWORD_STORE_DIR="$PWD/store"
            mkdir -m 700 gnupg other-gnupg
            gpg --batch --quiet --passphrase '' --quick-gen-key 'authcat test <test@example.com>' future-default default never
            GNUPGHOME="$PWD/other-gnupg" gpg --batch --quiet --passphrase '' \\
                --quick-gen-key 'someone else <else@example.com>' future-default default never
            GNUPGHOME="$PWD/other-gnupg" gpg --batch --quiet --export else@example.com | gpg --batch --quiet --import
            pass init test@example.com > /dev/null
            printf '%s\\n' hunter2 'login: alice' \\
                'otpauth://totp/GitHub:alice%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=GitHub' |
                pass insert -m github.com/alice > /dev/null
            echo 'otpauth://hotp/HOTP%20Corp:bob?secret=MFRGGZDFMZTWQ2LK&counter=42&digits=8' | pass otp insert hotp/bob
            printf '%s\\n' pw 'totp: ONSWG4TFOQ' | pass insert -m sites/carol > /dev/null
            printf '%s\\n' 'only a password' | pass insert -m mail/dave > /dev/null
            """)
    }

    override func tearDown() {
        for home in ["gnupg", "other-gnupg"] {
            let folder = authcat.root.appendingPathComponent(home).path
            XCTAssertEqual(try authcat.shell("gpgconf --kill gpg-agent", environment: ["GNUPGHOME": folder]).status, 0)
        }
        super.tearDown()
    }

    /// The vault's accounts as URIs, one a line.
    private func importedURIs() throws -> [String] {
        try uris(home: authcat.home.path).map { $0.trimmingCharacters(in: .newlines) }
    }

    func testAStoreIsImportedThroughTheUsersGPG() throws {
        let result = try authcat.run(["import", store])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "added 3 accounts from the password store; skipped 0, rejected 0\n")
        XCTAssertEqual(
            result.stderrLines.last,
            "authcat: warning: 1 entry holds no otpauth:// line or totp: field and was left out")
        XCTAssertFalse(result.stderr.contains("hunter2") || result.stdout.contains("hunter2"))
        XCTAssertEqual(
            try importedURIs(),
            [
                "otpauth://hotp/HOTP%20Corp:bob?secret=MFRGGZDFMZTWQ2LK&issuer=HOTP%20Corp&algorithm=SHA1&digits=8&counter=42",
                "otpauth://totp/GitHub:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=GitHub&algorithm=SHA1&digits=6&period=30",
                "otpauth://totp/sites:carol?secret=ONSWG4TFOQ&issuer=sites&algorithm=SHA1&digits=6&period=30",
            ])
        let listed = try accountsWithoutIDs(home: authcat.home.path)
        XCTAssertEqual(listed.map { $0["issuer"] ?? "" }.sorted(), ["GitHub", "HOTP Corp", "sites"])
    }

    func testAnEntryGPGCannotDecryptIsNamedByItsPathAndStopsTheImport() throws {
        try authcat.shell(
            """
            mkdir -p store/work
            printf '%s\\n' 'otpauth://totp/Work:x?secret=JBSWY3DPEHPK3PXP' |
                gpg --batch --quiet --trust-model always --encrypt --recipient else@example.com > store/work/locked.gpg
            """)
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        let refused = try authcat.run(["import", store])
        assertOneLineError(
            refused, containing: "1 entry is invalid, so nothing was imported: work/locked.gpg: ", status: 1)
        XCTAssertTrue(
            refused.stderr.contains("gpg could not decrypt it (gpg: decryption failed: No secret key)"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("JBSWY3DP"))
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
        let skipping = try succeed(["import", store, "--skip-invalid"])
        XCTAssertTrue(skipping.hasPrefix("added 3 accounts from the password store; skipped 0, rejected 1\n"), skipping)
    }

    func testWithoutItsProgramNothingIsImported() throws {
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        assertOneLineError(
            try authcat.run(["import", store], environment: ["PATH": "/nonexistent"]),
            containing: "decrypting the password store needs gpg (Debian package gnupg), which is not installed; "
                + "nothing was imported", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    func testAFolderIsReadOnlyAsAStore() throws {
        let plain = authcat.root.appendingPathComponent("plain").path
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        assertOneLineError(
            try authcat.run(["import", plain]),
            containing: "has no .gpg-id (pass) or .age-recipients (gopass); give --format pass to read it anyway",
            status: 1)
        assertOneLineError(
            try authcat.run(["import", store, "--format", "aegis"]),
            containing: "is a folder; only a password store (--format pass) is one", status: 1)
        // An unmarked folder named as a store is read (a sub-store of gopass, say).
        try FileManager.default.removeItem(atPath: store + "/.gpg-id")
        XCTAssertTrue(
            try succeed(["import", store, "--format", "pass", "--dry-run"]).hasPrefix("would add 3 accounts"))
    }

    func testOneEntryFromPassShowOnStandardInput() throws {
        let entry = try authcat.shell("PASSWORD_STORE_DIR=\"$PWD/store\" pass show github.com/alice")
        XCTAssertEqual(entry.status, 0, entry.stderr)
        let output = try succeed(["import", "-", "--format", "pass"], stdin: Data(entry.stdout.utf8))
        XCTAssertTrue(output.hasPrefix("added 1 account from the password store"), output)
    }

    func testAGopassStoreEncryptedWithAge() throws {
        try authcat.shell(
            """
            mkdir -p age-store/sites
            age-keygen -o identity 2> /dev/null
            age-keygen -y identity > age-store/.age-recipients
            printf '%s\\n' pw 'totp: otpauth://totp/Example:erin?secret=MFRGGZDFMZTWQ2LK&period=60' |
                age --encrypt --recipients-file age-store/.age-recipients > age-store/sites/erin.age
            """)
        let ageStore = authcat.root.appendingPathComponent("age-store").path
        assertOneLineError(
            try authcat.run(["import", ageStore]),
            containing: "set AUTHCAT_AGE_IDENTITY_FILE to your age identity file",
            status: 1)
        let identity = authcat.root.appendingPathComponent("identity").path
        let output = try succeed(["import", ageStore], environment: ["AUTHCAT_AGE_IDENTITY_FILE": identity])
        XCTAssertEqual(output, "added 1 account from the password store; skipped 0, rejected 0\n")
        XCTAssertEqual(
            try importedURIs(),
            ["otpauth://totp/Example:erin?secret=MFRGGZDFMZTWQ2LK&issuer=Example&algorithm=SHA1&digits=6&period=60"])
    }
}
