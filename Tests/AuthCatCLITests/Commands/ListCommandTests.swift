import Foundation
import XCTest

final class ListCommandTests: AuthCatTestCase {
    func testWithoutAccountsListAndCodeSayThereAreNone() throws {
        assertOneLineError(try authcat.run(["list"]), containing: "no accounts", status: 1)
        assertOneLineError(try authcat.run(["list", "--json"]), containing: "no accounts", status: 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.home.path), "reading must not create a vault")
        let id = try add("alice", issuer: "GitHub")
        _ = try succeed(["rm", id, "--yes"])
        // An empty vault: the front hands over, so both programs say the same.
        for program in [AuthCatRunner.executableURL, AuthCatRunner.fullProgramURL, try loneFront()] {
            let list = try authcat.runAsProcess(program: program, ["list"])
            let code = try authcat.runAsProcess(program: program, ["code"])
            if program.path.contains("/lone/") {
                XCTAssertEqual(list.status, 1, "the lone front hands over")
                XCTAssertTrue(list.stderr.contains("install authcat-cli beside authcat"), list.stderr)
                continue
            }
            assertOneLineError(list, containing: "no accounts in", status: 1)
            assertOneLineError(code, containing: "no accounts in", status: 1)
            XCTAssertEqual(list.stderr, code.stderr)
            // A script pipes `list --json` on: an empty vault is an empty array, as jq expects.
            let json = try authcat.runAsProcess(program: program, ["list", "--json"])
            XCTAssertEqual(json.status, 0, json.stderr)
            XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any])?.count, 0)
            let tagged = try authcat.runAsProcess(program: program, ["list", "--json", "--tag", "work"])
            XCTAssertEqual(tagged.status, 0, tagged.stderr)
            XCTAssertEqual(tagged.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "[]")
        }
    }

    /// No vault reads as no accounts, the same line and status 1 from every
    /// command that shows accounts, `--json` or not, and from both programs.
    func testNoVaultIsOneAnswerEverywhere() throws {
        let folder = authcat.home.path
        let expected = "authcat: no accounts in \(folder) yet; add one with 'authcat add' or 'authcat import'"
        let commands = [
            ["list"], ["list", "--json"], ["code"], ["code", "--json"], ["code", "github"],
            ["history"], ["history", "--json"], ["show", "github"], ["rm", "github", "--yes"],
        ]
        for command in commands {
            for program in [AuthCatRunner.executableURL, AuthCatRunner.fullProgramURL] {
                let result = try authcat.runAsProcess(program: program, command)
                XCTAssertEqual(result.status, 1, "\(command)")
                XCTAssertEqual(result.stdout, "", "\(command)")
                if command.contains("--json") {
                    XCTAssertTrue(
                        result.stderr.contains(#""message":"no accounts in "#), "\(command): \(result.stderr)")
                } else {
                    XCTAssertEqual(result.stderrLines, [expected], "\(command)")
                }
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "reading must not create a vault")
    }

    func testListIsSortedByIssuerThenNameIgnoringCase() throws {
        try add("zoe", issuer: "beta")
        try add("Adam", issuer: "Beta")
        try add("x", issuer: "Alpha", ["--type", "hotp", "--counter", "3", "--tag", "work"])
        try add("plain")
        let lines = try succeed(["list"]).split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines,
            [
                "plain      totp  sha1  6 digits  30s",
                "Alpha:x    hotp  sha1  6 digits  counter 3  work",
                "Beta:Adam  totp  sha1  6 digits  30s",
                "beta:zoe   totp  sha1  6 digits  30s",
            ])
    }

    /// A terminal gives a Chinese character or an emoji two columns: the
    /// columns after such a label line up with the others, in both programs.
    func testWideCharactersInALabelKeepTheColumnsAligned() throws {
        try add("李雷 🐱", issuer: "Bank")
        try add("alice", issuer: "GitHub")
        for program in [AuthCatRunner.executableURL, AuthCatRunner.fullProgramURL] {
            let list = try authcat.runAsProcess(program: program, ["list"])
            XCTAssertEqual(
                list.stdout,
                """
                Bank:李雷 🐱  totp  sha1  6 digits  30s
                GitHub:alice  totp  sha1  6 digits  30s

                """, program.lastPathComponent)
        }
    }

    func testJSONShapeNeverHasTheSecret() throws {
        let id = try add("alice", issuer: "GitHub", ["--tag", "b", "--tag", "a"])
        let output = try succeed(["list", "--json"])
        XCTAssertFalse(output.contains(Self.rfcSecret))
        let accounts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        XCTAssertEqual(accounts.count, 1)
        let account = accounts[0]
        XCTAssertEqual(
            Set(account.keys), ["id", "issuer", "name", "type", "algorithm", "digits", "period", "counter", "tags"])
        XCTAssertEqual(account["id"] as? String, id)
        XCTAssertEqual(account["issuer"] as? String, "GitHub")
        XCTAssertEqual(account["name"] as? String, "alice")
        XCTAssertEqual(account["type"] as? String, "totp")
        XCTAssertEqual(account["algorithm"] as? String, "sha1")
        XCTAssertEqual(account["digits"] as? Int, 6)
        XCTAssertEqual(account["period"] as? Int, 30)
        XCTAssertTrue(account["counter"] is NSNull)
        XCTAssertEqual(account["tags"] as? [String], ["a", "b"])
    }

    func testControlCharactersInNamesAreNotSentToTheTerminal() throws {
        try add("evil\u{1B}[2Jname")
        let output = try succeed(["list"])
        XCTAssertFalse(output.contains("\u{1B}"))
        XCTAssertTrue(output.contains("evil\\u{1b}[2Jname"), output)
        let error = try authcat.run(["add", "evil\u{1B}[2Jname"], stdin: Data(Self.rfcSecret.utf8))
        assertOneLineError(error, containing: "evil\\u{1b}[2Jname", status: 1)
        XCTAssertFalse(error.stderr.contains("\u{1B}"))
    }

    /// Tags match as names do, case and Latin accents folded: Aegis's group
    /// "Work", `--tag work` and `--tag Wörk` are one tag, found by any of its
    /// spellings, while each account shows the spelling it was first given.
    func testTagsMatchWhateverTheirCaseAndKeepTheirSpelling() throws {
        _ = try succeed(["import", InterchangeTests.fixtures.appendingPathComponent("aegis_plain.json").path])
        try add("carol", issuer: "Lower", ["--tag", "work"])
        try add("dave", issuer: "Accent", ["--tag", "Wörk"])
        try add("erin", issuer: "Twice", ["--tag", "Work", "--tag", "WORK", "--tag", "home"])
        let tagged = ["Accent:dave", "GitHub:alice@example.com", "Lower:carol", "Twice:erin", "Ünïcødé Bank:李雷 🐱"]
        for spelling in ["work", "WORK", "Wörk", " Work "] {
            let output = try succeed(["list", "--json", "--tag", spelling])
            let accounts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
            let labels = accounts.map { "\($0["issuer"] as? String ?? ""):\($0["name"] as? String ?? "")" }
            XCTAssertEqual(labels.sorted(), tagged.sorted(), spelling)
        }
        let tagsByName = Dictionary(
            try listedAccounts().map { ($0["name"] as? String ?? "", $0["tags"] as? [String] ?? []) }
        ) { first, _ in first }
        XCTAssertEqual(tagsByName["alice@example.com"], ["Work"])
        XCTAssertEqual(tagsByName["carol"], ["work"])
        XCTAssertEqual(tagsByName["dave"], ["Wörk"])
        XCTAssertEqual(tagsByName["erin"], ["Work", "home"], "one tag of three spellings, the first kept")
        // Tagged again in another case: the account keeps the spelling it has.
        try succeed(["edit", "Lower:carol", "--tag", "WORK"])
        XCTAssertTrue(try succeed(["list"]).contains("Lower:carol"))
        XCTAssertEqual(try listedAccounts().first { $0["name"] as? String == "carol" }?["tags"] as? [String], ["work"])
        // Untagged by any spelling.
        try succeed(["edit", "Twice:erin", "--untag", "wörk"])
        XCTAssertEqual(try listedAccounts().first { $0["name"] as? String == "erin" }?["tags"] as? [String], ["home"])
        // The table too finds both spellings.
        let table = try succeed(["list", "--tag", "WORK"])
        XCTAssertTrue(table.contains("GitHub:alice@example.com") && table.contains("Lower:carol"), table)
        XCTAssertFalse(table.contains("Twice:erin"), table)
    }
}
