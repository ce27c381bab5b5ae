import AuthCatInterchange
import Foundation
import XCTest

final class InterchangeImportTests: InterchangeTests {
    func testEveryAppFormatIsRecognisedAndImported() throws {
        let cases: [(file: String, added: Int, source: String)] = [
            ("otpauth.txt", 5, "otpauth URI list"), ("google_migration.txt", 4, "Google Authenticator export"),
            ("aegis_plain.json", 6, "Aegis vault"), ("twofas.2fas", 6, "2FAS backup"),
            ("andotp.json", 5, "andOTP backup"),
            ("bitwarden.json", 6, "Bitwarden export"), ("keepassxc.csv", 5, "KeePassXC export"),
            ("keepassxc.xml", 6, "KeePass XML export"), ("lastpass.json", 4, "LastPass Authenticator export"),
        ]
        for (index, item) in cases.enumerated() {
            let home = otherHome("home\(index)")
            let result = try authcat.run(["--home", home, "import", fixture(item.file)], withHome: false)
            XCTAssertEqual(result.status, 0, "\(item.file): \(result.stderr)")
            XCTAssertTrue(
                result.stdoutLines.first?.hasPrefix("added \(item.added) accounts from the \(item.source)") ?? false,
                "\(item.file): \(result.stdout)")
            XCTAssertEqual(try accountsWithoutIDs(home: home).count, item.added, item.file)
        }
    }

    func testImportIsOneTransactionByImportAndSkipsWhatIsThere() throws {
        try add("alice@example.com", issuer: "GitHub", secret: "JBSWY3DPEHPK3PXP")
        let output = try succeed(["import", fixture("aegis_plain.json"), "--dry-run"])
        XCTAssertEqual(
            output, "would add 5 accounts from the Aegis vault; skipped 1, rejected 0 (--verbose lists each)\n",
            "counts only, unless asked")
        let verbose = try succeed(["import", fixture("aegis_plain.json"), "--verbose"])
        XCTAssertEqual(
            verbose.split(separator: "\n").first, "added 5 accounts from the Aegis vault; skipped 1, rejected 0")
        XCTAssertTrue(verbose.contains("  skipped  entry 1 (GitHub:alice@example.com): already in the vault"), verbose)
        XCTAssertEqual(try latestHistoryAuthor(), "import")
        let history = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try succeed(["history", "--json"]).utf8)) as? [Any])
        XCTAssertEqual(history.count, 2, "the add, then one transaction for the whole import")
    }

    func testEncryptedAegisWithAPassphraseFileOrAWrongOne() throws {
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        let wrong = try scratch("wrong", "nope\n")
        assertOneLineError(
            try authcat.run(
                ["import", fixture("aegis_encrypted.json")], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": wrong]),
            containing: "the password does not open this Aegis vault", status: 1)
        assertOneLineError(
            try authcat.run(["import", fixture("aegis_encrypted.json")]), containing: "AUTHCAT_IMPORT_PASSPHRASE_FILE",
            status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
        let right = try scratch("right", "test-password\n")
        let output = try succeed(
            ["import", fixture("aegis_encrypted.json")], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": right])
        XCTAssertTrue(output.hasPrefix("added 6 accounts"), output)
    }

    /// A wrong password of an encrypted Aegis vault, typed, is asked for again,
    /// as every typed secret is; from a file it is final at once (above).
    func testAMistypedImportPasswordIsAskedForAgain() throws {
        let aegis = fixture("aegis_encrypted.json")
        let retyped = try authcat.runInTerminal(["import", aegis], typing: ["nope\n", "test-password\n"])
        XCTAssertEqual(retyped.status, 0, retyped.stdout)
        XCTAssertTrue(
            retyped.stdout.contains(
                "authcat: warning: the password does not open this Aegis vault (or the file was altered); nothing was "
                    + "imported; try again (2 tries left)\npassword of the Aegis vault: "),
            retyped.stdout)
        XCTAssertTrue(retyped.stdout.contains("added 6 accounts"), retyped.stdout)
        XCTAssertFalse(retyped.stdout.contains("test-password"), retyped.stdout)

        let wrong = try authcat.runInTerminal(
            ["import", aegis, "--dry-run"], typing: ["one\n", "two\n", "three\n"])
        XCTAssertEqual(wrong.status, 1, wrong.stdout)
        XCTAssertTrue(wrong.stdout.contains("try again (1 try left)"), wrong.stdout)
        XCTAssertTrue(
            wrong.stdout.hasSuffix(
                "authcat: the password does not open this Aegis vault (or the file was altered); "
                    + "nothing was imported\n"), wrong.stdout)
    }

    func testMalformedFilesFailCleanlyWithTheVaultUnchanged() throws {
        try add("existing")
        let before = try VaultSnapshot.take(authcat)
        let aegis = try String(contentsOfFile: fixture("aegis_plain.json"), encoding: .utf8)
        let cases: [(name: String, content: String, format: String?, message: String)] = [
            ("truncated.json", String(aegis.prefix(700)), nil, "does not parse (truncated or damaged?)"),
            ("truncated-aegis.json", String(aegis.prefix(700)), "aegis", "not valid JSON"),
            (
                "types.json", #"[{"secret": "JBSWY3DPEHPK3PXP", "label": "a", "digits": "six"}]"#, "andotp",
                "entry 1 (a): field 'digits' should be a number"
            ),
            (
                "base32.txt",
                "otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP\notpauth://totp/B:b?secret=JBSWY3DP0HPK3PXP\n", nil,
                "line 2 (B:b): the URI's secret is not valid Base32"
            ),
            ("empty.txt", "", nil, "the file is empty; nothing was imported"),
            ("blank.txt", "\n  \n", nil, "the file is empty"),
            (
                "google.txt", "otpauth-migration://offline?data=AAAA%%%\n", nil,
                "line 1: its data parameter is not base64"
            ),
        ]
        for item in cases {
            let path = try scratch(item.name, item.content)
            let result = try authcat.run(["import", path] + (item.format.map { ["--format", $0] } ?? []))
            assertOneLineError(result, containing: item.message, status: 1)
            XCTAssertFalse(
                result.stderr.contains("JBSWY3DP0HPK3PXP"), "the secret must not be echoed: \(result.stderr)")
        }
        assertOneLineError(try authcat.run(["import", "/dev/null"]), containing: "the file is empty", status: 1)
        assertOneLineError(
            try authcat.run(["import", authcat.root.path]),
            containing: "\(authcat.root.path) has no .gpg-id (pass) or .age-recipients (gopass)", status: 1)
        assertOneLineError(
            try authcat.run(["import", authcat.root.appendingPathComponent("missing.json").path]),
            containing: "no such file", status: 1)
        let screenshot = authcat.root.appendingPathComponent("screenshot.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).write(
            to: screenshot)
        assertOneLineError(
            try authcat.run(["import", screenshot.path]),
            containing: "the file is a PNG image; to import the QR codes in it, add --qr", status: 1)
        let huge = authcat.root.appendingPathComponent("huge.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge.path, contents: nil))
        try FileHandle(forWritingTo: huge).truncate(atOffset: 64 << 20 + 1)
        assertOneLineError(try authcat.run(["import", huge.path]), containing: "longer than 67108864 bytes", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    /// --format naming another format than the file's: the error names the one it looks like.
    func testAFormatThatDoesNotFitTheFileNamesTheOneItLooksLike() throws {
        let aegis = try authcat.run(["import", fixture("aegis_plain.json"), "--format", "google"])
        assertOneLineError(
            aegis,
            containing: "this looks like an Aegis vault, not a Google Authenticator export: "
                + "leave out --format, or give --format aegis", status: 1)
        let list = try authcat.run(["import", fixture("otpauth.txt"), "--format", "andotp"])
        assertOneLineError(list, containing: "this looks like an otpauth URI list, not an andOTP backup", status: 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.databaseURL.path))
    }

    func testSkipInvalidImportsTheRest() throws {
        let path = try scratch("mixed.txt", "otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP\notpauth://totp/B:b?secret=1\n")
        let refused = try authcat.run(["import", path])
        assertOneLineError(refused, containing: "1 entry is invalid, so nothing was imported", status: 1)
        XCTAssertTrue(
            refused.stderr.hasSuffix("; pass --skip-invalid to import the valid entries, or fix the file\n"),
            refused.stderr)
        // The same advice when the vault already holds accounts (the refusal then comes from its transaction).
        try add("c", issuer: "C")
        let refusedByAVault = try authcat.run(["import", path])
        XCTAssertTrue(
            refusedByAVault.stderr.hasSuffix("; pass --skip-invalid to import the valid entries, or fix the file\n"),
            refusedByAVault.stderr)
        XCTAssertEqual(refusedByAVault.status, 1)
        // --json says so too, as docs/JSON.md promises, whether or not a vault was there.
        let refusedAsJSON = try authcat.run(["import", path, "--json"])
        XCTAssertEqual(refusedAsJSON.status, 1)
        XCTAssertEqual((try refusedAsJSON.json() as? [String: Any])?["refused"] as? Bool, true, refusedAsJSON.stdout)
        let output = try succeed(["import", path, "--skip-invalid"])
        XCTAssertTrue(output.hasPrefix("added 1 account from the otpauth URI list; skipped 0, rejected 1"), output)
        XCTAssertEqual(try listedAccounts().map { $0["name"] as? String }, ["a", "c"])
    }

    func testDryRunCreatesAndChangesNothing() throws {
        let output = try succeed(["import", fixture("twofas.2fas"), "--dry-run", "--verbose"])
        XCTAssertTrue(output.hasPrefix("would add 6 accounts from the 2FAS backup"), output)
        XCTAssertTrue(output.contains("  add      entry 2: Ünïcødé Bank:李雷 🐱"), output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.home.path), "a dry run creates no vault")
        try add("x")
        let before = try VaultSnapshot.take(authcat)
        try succeed(["import", fixture("twofas.2fas"), "--dry-run", "--json"])
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    func testStandardInputAndJSONSummary() throws {
        let input = Data(try String(contentsOfFile: fixture("otpauth.txt"), encoding: .utf8).utf8)
        let output = try succeed(["import", "-", "--json"], stdin: input)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        XCTAssertEqual(summary["added"] as? Int, 5)
        XCTAssertEqual(summary["rejected"] as? Int, 2)
        XCTAssertEqual(summary["format"] as? String, "otpauth")
        let rejected = try XCTUnwrap(summary["rejected_entries"] as? [[String: Any]])
        XCTAssertEqual(rejected.map { $0["position"] as? String }, ["line 8", "line 9"])
        XCTAssertFalse(output.contains("MFRGGZDFMZTWQ2LK"), "no secret in the summary")
    }

    /// `/dev/stdin` and `/dev/fd/0` name the command line's standard input,
    /// as output paths name its output: run in process, the piped bytes, not
    /// the test process's own input. A passphrase file too.
    func testInputPathsNamingStandardInputReadTheInvocationsInput() throws {
        let uri = Data("otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP\n".utf8)
        let viaDevStdin = try authcat.run(["import", "--format", "otpauth", "/dev/stdin"], stdin: uri, timeout: 20)
        XCTAssertEqual(viaDevStdin.status, 0, viaDevStdin.stderr)
        XCTAssertTrue(viaDevStdin.stdout.hasPrefix("added 1 account from the otpauth URI list"), viaDevStdin.stdout)
        let again = try authcat.run(["import", "--format", "otpauth", "/dev/fd/0"], stdin: uri, timeout: 20)
        XCTAssertTrue(again.stdout.contains("skipped 1"), again.stdout + again.stderr)

        let set = try authcat.run(
            ["passphrase", "set"], stdin: Data("correct horse\n".utf8),
            environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": "/dev/stdin"], timeout: 20)
        XCTAssertEqual(set.status, 0, set.stderr)
        let code = try authcat.run(
            ["code", "A:a", "--at", "59"], stdin: Data("correct horse\n".utf8),
            environment: ["AUTHCAT_PASSPHRASE_FILE": "/dev/stdin"], timeout: 20)
        XCTAssertEqual(code.status, 0, code.stderr)
        XCTAssertEqual(code.stdout.count, 7, "a code: \(code.stdout)")
    }

    func testConflictingSecretIsReportedAndTheVaultKeepsItsOwn() throws {
        try add("alice@example.com", issuer: "GitHub", secret: Self.otherSecret)
        let output = try succeed(["import", fixture("andotp.json")])
        XCTAssertTrue(
            output.contains(
                "rejected entry 1 (GitHub:alice@example.com): the vault already has GitHub:alice@example.com with a different secret"
            ), output)
        XCTAssertTrue(try succeed(["show", "github", "--uri"]).contains("secret=\(Self.otherSecret)"))
    }

    func testQRCodesInAPNGScreenshot() throws {
        let uris = try String(contentsOfFile: fixture("google_migration.txt"), encoding: .utf8).split(separator: "\n")
            .map(String.init)
        let png = try QRCode.encode(uris[0]).image(scale: 3).pngData()
        let output = try succeed(["import", "--qr", try scratch("shot.png", png)])
        XCTAssertTrue(output.hasPrefix("added 2 accounts from the Google Authenticator export"), output)
        let warning = try authcat.run(["import", "--qr", try scratch("again.png", png)]).stderr
        XCTAssertTrue(warning.contains("code 2 is missing"), warning)
        assertOneLineError(
            try authcat.run([
                "import", "--qr", try scratch("blank.png", try GreyImage(width: 40, height: 40).pngData()),
            ]),
            containing: "no QR code was found", status: 1)
        assertOneLineError(
            try authcat.run(["import", "--qr", fixture("otpauth.txt")]), containing: "not a readable PNG", status: 1)
        assertOneLineError(
            try authcat.run(["import", "--qr", try scratch("empty.png", Data())]),
            containing: "authcat: the file is empty; nothing was imported", status: 1)
    }

    /// A pipe (`<(…)`, a FIFO) is read like a file.
    func testAFIFOIsReadLikeAFile() throws {
        let fifo = authcat.root.appendingPathComponent("uris").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "printf 'otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP\\n' > \"$0\"", fifo]
        try writer.run()
        let output = try succeed(["import", fifo])
        writer.waitUntilExit()
        XCTAssertTrue(output.hasPrefix("added 1 account from the otpauth URI list"), output)
    }
}
