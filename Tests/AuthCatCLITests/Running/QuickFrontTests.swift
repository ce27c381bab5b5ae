import Foundation
import XCTest

/// `authcat` is a small front that answers plain `code QUERY` and `list`
/// itself and hands everything else to `authcat-cli`. A copy of the front with no `authcat-cli`
/// beside it shows which of the two answered.
final class QuickFrontTests: AuthCatTestCase {
    private func assertHandedOver(_ result: AuthCatResult, file: StaticString = #filePath, line: UInt = #line) {
        assertOneLineError(result, containing: "install authcat-cli beside authcat", status: 1, file: file, line: line)
    }

    func testTheFrontPrintsTOTPAndSteamCodesByItself() throws {
        let id = try add("rfc", issuer: "Test")
        try add("gaben", issuer: "Steam", secret: Self.otherSecret, ["--type", "steam"])
        let steam = try succeed(["code", "gaben", "--at", "59"])
        let front = try loneFront()
        for query in ["rfc", "TEST:RFC", id, id.uppercased(), "es"] {
            let result = try authcat.runAsProcess(program: front, ["code", query, "--at", "59"])
            XCTAssertEqual(result.status, 0, "\(query): \(result.stderr)")
            XCTAssertEqual(result.stdout, "287082\n", query)
        }
        XCTAssertEqual(try authcat.runAsProcess(program: front, ["code", "--at=59", "gaben"]).stdout, steam)
    }

    func testEverythingElseIsHandedToTheFullProgram() throws {
        try add("counter", ["--type", "hotp"])
        try add("alice", issuer: "GitHub", secret: Self.otherSecret)
        try add("bob", issuer: "GitHub", secret: Self.otherSecret)
        let before = try VaultSnapshot.take(authcat)
        let front = try loneFront()
        for arguments in [
            ["code", "counter"], ["code", "alice", "--json"],
            ["code"], ["list", "--json", "--json"], ["list", "alice"], ["--help"], ["code", "alice", "extra"],
            ["list", "--verbose"],
        ] {
            assertHandedOver(try authcat.runAsProcess(program: front, arguments))
        }
        XCTAssertEqual(try VaultSnapshot.take(authcat), before, "the HOTP counter was not used")
    }

    /// A query that names several accounts, or none, is answered by the
    /// front itself (a short query in a big vault would otherwise start the
    /// full program), with authcat-cli's message and status.
    func testTheFrontSaysWhichAccountsAQueryNamesOrThatItNamesNone() throws {
        try add("alice", issuer: "GitHub")
        try add("bob", issuer: "GitHub", secret: Self.otherSecret)
        try add("counter", issuer: "GitLab", ["--type", "hotp"])
        for index in 1...9 { try add("user\(index)", issuer: "Many") }
        let before = try VaultSnapshot.take(authcat)
        let front = try loneFront()
        for query in ["github", "git", "nobody", "many", "user", "GITHUB:", "é\u{07}"] {
            let quick = try authcat.runAsProcess(program: front, ["code", query])
            let full = try authcat.runAsProcess(program: AuthCatRunner.fullProgramURL, ["code", query])
            XCTAssertEqual(quick.status, 1, "\(query): \(quick.stderr)")
            XCTAssertEqual(quick.stdout, "")
            XCTAssertEqual(quick.stderr, full.stderr, query)
            XCTAssertEqual(quick.status, full.status, query)
        }
        XCTAssertEqual(
            try authcat.runAsProcess(program: front, ["code", "user"]).stderr,
            "authcat: 'user' matches 9 accounts: Many:user1, Many:user2, Many:user3, Many:user4, Many:user5, "
                + "Many:user6, Many:user7, Many:user8 and 1 more; give more of the name, or ISSUER:NAME\n")
        XCTAssertEqual(
            try authcat.runAsProcess(program: front, ["code", "nobody"]).stderr,
            "authcat: no account matches 'nobody'\n")
        // One match by a part of its name: the front prints the code.
        XCTAssertEqual(try authcat.runAsProcess(program: front, ["code", "ali", "--at", "59"]).status, 0)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before, "no HOTP counter was used")
    }

    func testAVaultWithAPassphraseIsHandedToTheFullProgram() throws {
        try add("rfc", issuer: "Test")
        let passphrase = authcat.root.appendingPathComponent("passphrase")
        try Data("correct horse\n".utf8).write(to: passphrase)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": passphrase.path])
        assertHandedOver(try authcat.runAsProcess(program: try loneFront(), ["code", "rfc"]))
        // Naming no account needs no key: the front says so, as authcat-cli does, without a prompt.
        let quick = try authcat.runAsProcess(program: try loneFront(), ["code", "nobody"])
        XCTAssertEqual(quick.status, 1)
        XCTAssertEqual(
            quick.stderr, try authcat.runAsProcess(program: AuthCatRunner.fullProgramURL, ["code", "nobody"]).stderr)
        let result = try authcat.runAsProcess(
            ["code", "rfc", "--at", "59"], environment: ["AUTHCAT_PASSPHRASE_FILE": passphrase.path])
        XCTAssertEqual(result.stdout, "287082\n", result.stderr)
    }

    func testAFolderOthersCanReadIsHandedOverSoTheWarningIsShown() throws {
        try add("rfc", issuer: "Test")
        XCTAssertEqual(chmod(authcat.home.path, 0o750), 0)
        assertHandedOver(try authcat.runAsProcess(program: try loneFront(), ["code", "rfc"]))
        let result = try authcat.runAsProcess(["code", "rfc", "--at", "59"])
        XCTAssertEqual(result.stdout, "287082\n")
        XCTAssertTrue(result.stderr.hasPrefix("authcat: warning:"), result.stderr)
    }

    /// The front and the full program answer every query alike: the same
    /// output, errors and status. Each query goes to a lone front, so that
    /// which program answered is known: the front answers these itself
    /// (a hand-over would fail), and hands over the HOTP account, which the
    /// installed pair then answers through authcat-cli.
    func testTheFrontAndTheFullProgramAgree() throws {
        try add("c", issuer: "a:b")
        try add("b:d", issuer: "a", secret: Self.otherSecret)
        try add("x:y", issuer: "")
        try add("Zoë", issuer: "Café")
        try add("alice@example.com", issuer: "GitHub")
        try add("git", secret: Self.otherSecret)
        try add("counter", issuer: "Bank", ["--type", "hotp"])
        let gone = try add("gone", issuer: "Old")
        try succeed(["rm", gone, "--yes"])
        let front = try loneFront()
        for query in [
            "A:B:C", "a:b:d", "x:Y", ":y", "git", "GIT", "hub", "github:ALICE@example.com", "a", gone, "Old:gone", "é",
            "",
            "zoe", "cafe:zoe", "Zoe\u{308}", "e",
        ] {
            let arguments = ["code", query, "--at", "1111111109"]
            let quick = try authcat.runAsProcess(program: front, arguments)
            let full = try authcat.runAsProcess(program: AuthCatRunner.fullProgramURL, arguments)
            XCTAssertFalse(quick.stderr.contains("install authcat-cli"), "\(query): the front handed it over")
            XCTAssertEqual(quick.status, full.status, query)
            XCTAssertEqual(quick.stdout, full.stdout, query)
            XCTAssertEqual(quick.stderr, full.stderr, query)
        }
        for query in ["counter", "bank:COUNTER"] {
            assertHandedOver(try authcat.runAsProcess(program: front, ["code", query, "--at", "1111111109"]))
        }
        let handedOver = try authcat.runAsProcess(["code", "counter"])
        XCTAssertEqual(handedOver.status, 0, handedOver.stderr)
        XCTAssertEqual(handedOver.stdout, "755224\n", "RFC 4226's first code, from authcat-cli")
    }

    func testTheFrontListsAccountsAsTheFullProgramDoes() throws {
        let front = try loneFront()
        assertHandedOver(try authcat.runAsProcess(program: front, ["list"]))  // no vault yet
        try add("alice", issuer: "GitHub", ["--tag", "work", "--tag", "code"])
        try add("counter", secret: Self.otherSecret, ["--type", "hotp", "--counter", "7", "--digits", "8"])
        try add("bell\u{07}", issuer: "Évry", ["--algorithm", "sha256", "--period", "60"])
        let gone = try add("gone", issuer: "Old", secret: Self.otherSecret)
        try succeed(["rm", gone, "--yes"])
        let full = try authcat.runAsProcess(program: AuthCatRunner.fullProgramURL, ["list"])
        XCTAssertEqual(full.stdoutLines.count, 3, full.stdout)
        let quick = try authcat.runAsProcess(program: front, ["list"])
        XCTAssertEqual(quick.status, 0, quick.stderr)
        XCTAssertEqual(quick.stdout, full.stdout)
        XCTAssertEqual(quick.stderr, "")
        let fullJSON = try authcat.runAsProcess(program: AuthCatRunner.fullProgramURL, ["list", "--json"])
        let quickJSON = try authcat.runAsProcess(program: front, ["list", "--json"])
        XCTAssertEqual(quickJSON.status, 0, quickJSON.stderr)
        XCTAssertEqual(
            quickJSON.stdout, fullJSON.stdout, "the front answered list --json with the full program's bytes")
        XCTAssertEqual((try quickJSON.json() as? [Any])?.count, 3)
    }

    /// A Tab in a shell asks for account names (`---completion`); the front
    /// answers with the full program's candidates, byte for byte, for every
    /// command that completes an account, in every shell's form, and hands
    /// over what it does not know.
    func testTheFrontCompletesAccountNamesAsTheFullProgramDoes() throws {
        try add("alice@work", issuer: "GitHub")
        try add("alice", issuer: "GitLab")
        try add("carol smith", issuer: "Example")
        try add("o'hara", issuer: "Mail")
        try add("josé", issuer: "Café")
        let gone = try add("gone", issuer: "Old")
        try succeed(["rm", gone, "--yes"])
        let front = try loneFront()
        let home = ["AUTHCAT_HOME": authcat.home.path]
        func request(_ command: String, _ words: [String]) -> [String] {
            let line = ["authcat", command] + words
            return [
                "---completion", command, "--", "positional@0", "\(line.count - 1)", "\(line[line.count - 1].count)",
            ] + line
        }
        func assertSame(
            _ arguments: [String], _ environment: [String: String], file: StaticString = #filePath, line: UInt = #line
        ) throws {
            let quick = try authcat.runAsProcess(program: front, arguments, environment: environment, withHome: false)
            let full = try authcat.runAsProcess(
                program: AuthCatRunner.fullProgramURL, arguments, environment: environment,
                withHome: false)
            let what = "\(arguments.suffix(2)) \(environment["SAP_SHELL"] ?? "no shell")"
            XCTAssertFalse(
                quick.stderr.contains("install authcat-cli"), "\(what): the front handed it over", file: file,
                line: line)
            XCTAssertEqual(quick.status, full.status, what, file: file, line: line)
            XCTAssertEqual(quick.stdout, full.stdout, what, file: file, line: line)
            XCTAssertEqual(quick.stderr, full.stderr, what, file: file, line: line)
        }
        let shells: [[String: String]] = [
            [:], ["SAP_SHELL": "bash"], ["SAP_SHELL": "zsh"],
            ["SAP_SHELL": "fish", "SAP_SHELL_VERSION": "3.6.0"],
            ["SAP_SHELL": "fish", "SAP_SHELL_VERSION": "4.0.2"], ["SAP_SHELL": "tcsh"],
        ]
        for shell in shells {
            for word in [
                "", "ali", "GitHub:al", "github:AL", "'caf", "\"Example:c", "Example:carol\\ s", "'mail:o", "nothing",
            ] {
                try assertSame(request("code", [word]), home.merging(shell) { $1 })
            }
        }
        for command in ["code", "show", "edit", "rm", "restore", "history"] {
            for word in ["", "o", "old:"] {
                try assertSame(request(command, [word]), home.merging(["SAP_SHELL": "bash"]) { $1 })
            }
        }
        // The vault named by --home among the words; none at all; bash's own word breaks.
        try assertSame(request("code", ["--home", authcat.home.path, "git"]), [:])
        try assertSame(request("code", ["git"]), ["AUTHCAT_HOME": authcat.root.appendingPathComponent("none").path])
        try assertSame(
            request("code", ["GitHub:al"]),
            home.merging(["SAP_SHELL": "bash", "AUTHCAT_COMP_WORDBREAKS": " \t\n\"'><=;|&("]) { $1 })
        // Another argument, or a command without account names: the full program's.
        assertHandedOver(
            try authcat.runAsProcess(
                program: front, ["---completion", "list", "--", "--home", "2", "0", "authcat", "list", "--home", ""],
                environment: home, withHome: false))
        assertHandedOver(
            try authcat.runAsProcess(
                program: front, ["---completion", "remove", "--", "positional@0", "2", "0", "authcat", "remove", ""],
                environment: home, withHome: false))
    }

    /// Reading writes nothing: no file of the vault folder changes, the
    /// write-ahead log's index (`vault.sqlite-shm`) included, which SQLite
    /// would otherwise rebuild at every code (`VaultReader.ReadOnlyConnection`).
    func testTheFrontLeavesTheVaultFilesAsTheyWere() throws {
        try add("rfc", issuer: "Test")
        try succeed(["code", "rfc"])
        let before = try vaultFolderFiles()
        XCTAssertNotNil(before["vault.sqlite-shm"], "the core keeps the index file")
        let front = try loneFront()
        for _ in 0..<3 {
            XCTAssertEqual(try authcat.runAsProcess(program: front, ["code", "rfc"]).status, 0)
        }
        let after = try vaultFolderFiles()
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        XCTAssertEqual(changed, [], "files the front changed, made or removed")
    }

    /// Without the index file, or in a folder whose name SQLite would read
    /// as a URI's query, fragment or escape, the front still answers itself.
    func testTheFrontReadsAVaultWithoutAnIndexFileAndInAFolderOfAnyName() throws {
        try add("rfc", issuer: "Test")
        let front = try loneFront()
        for name in ["vault.sqlite-shm", "vault.sqlite-wal"] {
            try FileManager.default.removeItem(at: authcat.home.appendingPathComponent(name))
        }
        let withoutIndex = try authcat.runAsProcess(program: front, ["code", "rfc", "--at", "59"])
        XCTAssertEqual(withoutIndex.stdout, "287082\n", withoutIndex.stderr)
        // That run made the index file again, so the next opens it read-only, by a URI.
        let oddName = authcat.root.appendingPathComponent("a ?b#c%41d%é", isDirectory: true)
        try FileManager.default.moveItem(at: authcat.home, to: oddName)
        XCTAssertTrue(FileManager.default.fileExists(atPath: oddName.appendingPathComponent("vault.sqlite-shm").path))
        let moved = try authcat.runAsProcess(
            program: front, ["--home", oddName.path, "code", "rfc", "--at", "59"], withHome: false)
        XCTAssertEqual(moved.stdout, "287082\n", moved.stderr)
    }

    /// The front reads while the full program writes the same vault, 25
    /// edits that each add a tag: every list it prints itself shows a state
    /// the vault was in (the first k tags, k never falling from one list to
    /// the next), and anything it cannot read it hands over.
    func testTheFrontReadsCommittedStatesWhileTheFullProgramWrites() throws {
        try add("other", issuer: "Test")
        let front = try loneFront()
        let runs = try authcat.shell(
            """
            for i in $(seq 1 25); do authcat edit Test:other --tag "t$i" > /dev/null; done &
            writer=$!
            while kill -0 "$writer" 2> /dev/null; do
                "$LONE" --home "$AUTHCAT_VAULT" list --json > out 2> err && status=0 || status=$?
                echo "$status $(base64 -w0 < out) $(base64 -w0 < err)"
            done
            wait "$writer"
            """, environment: ["LONE": front.path], timeout: 120)
        XCTAssertEqual(runs.status, 0, runs.stderr)
        var tagsSeen = 0
        var answered = 0
        for line in runs.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else {
                XCTFail("not a status and two outputs: \(line)")
                continue
            }
            let output = Data(base64Encoded: fields[1]) ?? Data()
            let errors = String(decoding: Data(base64Encoded: fields[2]) ?? Data(), as: UTF8.self)
            guard fields[0] == "0" else {
                XCTAssertEqual(fields[0], "1", errors)
                XCTAssertTrue(errors.hasSuffix("install authcat-cli beside authcat\n"), errors)
                continue
            }
            let tags = try Self.tagsOfTheOneAccount(listed: output)
            XCTAssertEqual(tags, Set((0..<tags.count).map { "t\($0 + 1)" }), "a state the vault was never in")
            XCTAssertGreaterThanOrEqual(tags.count, tagsSeen, "an older state after a newer one")
            tagsSeen = max(tagsSeen, tags.count)
            answered += 1
        }
        XCTAssertGreaterThan(answered, 0, "the front answered no list while the edits ran")
        let last = try authcat.runAsProcess(program: front, ["list", "--json"])
        XCTAssertEqual(try Self.tagsOfTheOneAccount(listed: Data(last.stdout.utf8)).count, 25, last.stderr)
    }

    /// The tags of the one account `list --json` printed.
    private static func tagsOfTheOneAccount(listed json: Data) throws -> Set<String> {
        let accounts = try JSONSerialization.jsonObject(with: json) as? [[String: Any]]
        XCTAssertEqual(accounts?.count, 1)
        return Set(accounts?.first?["tags"] as? [String] ?? ["(no list of tags)"])
    }

    /// Every file of the vault folder: its bytes and when it last changed.
    private func vaultFolderFiles() throws -> [String: FileState] {
        var files: [String: FileState] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: authcat.home.path) {
            let url = authcat.home.appendingPathComponent(name)
            let modified = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
            files[name] = FileState(bytes: try Data(contentsOf: url), modified: modified)
        }
        return files
    }

    private struct FileState: Equatable {
        var bytes: Data
        var modified: Date?
    }
}
