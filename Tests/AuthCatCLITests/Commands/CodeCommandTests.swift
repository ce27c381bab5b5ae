import Foundation
import XCTest

final class CodeCommandTests: AuthCatTestCase {
    static let sha256Secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA"
    static let sha512Secret =
        "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA"

    func testRFC6238ValueAt59PrintsOnlyTheCodeWhenPiped() throws {
        try add("rfc", issuer: "Test")
        let result = try authcat.run(["code", "rfc", "--at", "59"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "287082\n")
        XCTAssertEqual(result.stderr, "")
    }

    func testRFC6238VectorsForEveryAlgorithm() throws {
        try add("sha1", secret: Self.rfcSecret, ["--digits", "8"])
        try add("sha256", secret: Self.sha256Secret, ["--digits", "8", "--algorithm", "sha256"])
        try add("sha512", secret: Self.sha512Secret, ["--digits", "8", "--algorithm", "SHA512"])
        let expected: [(String, [String])] = [
            ("59", ["94287082", "46119246", "90693936"]),
            ("1111111109", ["07081804", "68084774", "25091201"]),
            ("2000000000", ["69279037", "90698825", "38618901"]),
        ]
        for (time, codes) in expected {
            for (name, code) in zip(["sha1", "sha256", "sha512"], codes) {
                XCTAssertEqual(try succeed(["code", name, "--at", time]), code + "\n", "\(name) at \(time)")
            }
        }
    }

    func testQueryMatchesIdThenExactLabelThenSubstring() throws {
        let gitID = try add("git")
        try add("alice@example.com", issuer: "GitHub", secret: Self.otherSecret)
        let exact = try object(try succeed(["code", "GIT", "--json"]))
        XCTAssertEqual(exact["id"] as? String, gitID, "the exact label wins over substrings of both accounts")
        let byID = try object(try succeed(["code", gitID.uppercased(), "--json"]))
        XCTAssertEqual(byID["name"] as? String, "git")
        let bySubstring = try object(try succeed(["code", "HUB", "--json"]))
        XCTAssertEqual(bySubstring["issuer"] as? String, "GitHub")
        let byLabel = try object(try succeed(["code", "github:ALICE@example.com", "--json"]))
        XCTAssertEqual(byLabel["issuer"] as? String, "GitHub")
    }

    /// Colons may be in an issuer or a name, but no two accounts may share
    /// a label: `a:b:c` could be either of two accounts, and names one.
    func testExactLabelsWithColonsInIssuerOrName() throws {
        try add("c", issuer: "a:b")
        let clash = try authcat.run(["add", "b:c", "--issuer", "a"], stdin: Data("\(Self.otherSecret)\n".utf8))
        assertOneLineError(clash, containing: "an account named a:b:c already exists", status: 1)
        try add("b:d", issuer: "a", secret: Self.otherSecret)
        try add("x:y", issuer: "")
        XCTAssertEqual(try object(try succeed(["code", "A:B:C", "--json"]))["issuer"] as? String, "a:b")
        XCTAssertEqual(try object(try succeed(["code", "a:b:d", "--json"]))["name"] as? String, "b:d")
        XCTAssertEqual(try object(try succeed(["code", "x:Y", "--json"]))["name"] as? String, "x:y")
        let removed = try add("gone", issuer: "Old")
        try succeed(["rm", removed, "--yes"])
        assertOneLineError(try authcat.run(["code", removed]), containing: "no account matches", status: 1)
        assertOneLineError(try authcat.run(["code", "Old:gone"]), containing: "no account matches", status: 1)
    }

    /// `code QUERY` skips ArgumentParser when the command line is plain; every
    /// spelling must behave exactly like the parsed one.
    func testEverySpellingOfTheCommandLineGivesTheSameCode() throws {
        try add("rfc", issuer: "Test")
        let home = authcat.home.path
        let spellings = [
            ["--home", home, "code", "rfc", "--at", "59"],
            ["--home=\(home)", "code", "--at=59", "rfc"],
            ["code", "--home", home, "--at", "59", "Test:rfc"],
            ["code", "rfc", "--at", "59", "--home", home, "--json"],
        ]
        for arguments in spellings {
            let result = try authcat.run(arguments, withHome: false)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains("287082"), "\(arguments): \(result.stdout)")
        }
        assertOneLineError(try authcat.run(["code", "rfc", "extra"]), containing: "unexpected argument", status: 64)
        assertOneLineError(try authcat.run(["code", "--at", "noon", "rfc"]), containing: "--at", status: 64)
        assertOneLineError(try authcat.run(["code", "-x", "rfc"]), containing: "-x", status: 64)
    }

    func testAmbiguousQueryFailsListingTheCandidates() throws {
        try add("alice", issuer: "GitHub")
        try add("bob", issuer: "GitLab")
        let result = try authcat.run(["code", "git"])
        assertOneLineError(result, containing: "matches 2 accounts", status: 1)
        XCTAssertTrue(result.stderr.contains("GitHub:alice") && result.stderr.contains("GitLab:bob"), result.stderr)
    }

    func testUnknownQueryFails() throws {
        try add("alice", issuer: "GitHub")
        assertOneLineError(try authcat.run(["code", "nothing-like-it"]), containing: "no account matches", status: 1)
    }

    func testWithoutVaultCodeFails() throws {
        assertOneLineError(try authcat.run(["code", "x"]), containing: "no accounts in", status: 1)
        assertOneLineError(try authcat.run(["code"]), containing: "no accounts in", status: 1)
    }

    func testWithoutQueryPrintsEveryCodeSortedAndSkipsHOTP() throws {
        try add("zed", issuer: "beta")
        try add("amy", issuer: "Beta", secret: Self.otherSecret)
        try add("counter", issuer: "alpha", ["--type", "hotp"])
        try add("solo")
        let lines = try succeed(["code", "--at", "59"]).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4)
        XCTAssertEqual(
            lines.map { $0.split(separator: " ").last.map(String.init) },
            ["solo", "alpha:counter", "Beta:amy", "beta:zed"])
        XCTAssertTrue(lines[0].hasPrefix("287082 "), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("- "), "HOTP shows no code when listing: \(lines[1])")
        XCTAssertEqual(
            try listedAccounts().first { $0["name"] as? String == "counter" }?["counter"] as? Int, 0,
            "listing codes must not use up an HOTP counter value")
    }

    func testJSONShapeForOneAccount() throws {
        let id = try add("rfc", issuer: "Test")
        let json = try object(try succeed(["code", "rfc", "--json", "--at", "59"]))
        XCTAssertEqual(Set(json.keys), ["id", "issuer", "name", "code", "type", "period", "valid_until"])
        XCTAssertEqual(json["id"] as? String, id)
        XCTAssertEqual(json["issuer"] as? String, "Test")
        XCTAssertEqual(json["name"] as? String, "rfc")
        XCTAssertEqual(json["code"] as? String, "287082")
        XCTAssertEqual(json["type"] as? String, "totp")
        XCTAssertEqual(json["period"] as? Int, 30)
        XCTAssertEqual(json["valid_until"] as? Int, 60)
    }

    func testJSONWithoutQueryIsASortedArray() throws {
        try add("b", issuer: "Second")
        try add("a", issuer: "First", ["--type", "hotp"])
        let output = try succeed(["code", "--json", "--at", "59"])
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.map { $0["issuer"] as? String }, ["First", "Second"])
        XCTAssertTrue(array[0]["code"] is NSNull, "an HOTP code is not generated when listing")
        XCTAssertTrue(array[0]["period"] is NSNull)
        XCTAssertEqual(array[1]["code"] as? String, "287082")
        XCTAssertEqual(array[1]["valid_until"] as? Int, 60)
    }

    /// No accounts is an error with --json too, as for list (docs/JSON.md).
    func testJSONOfEmptyVaultIsNoAccounts() throws {
        let id = try add("only")
        try succeed(["rm", id, "--yes"])
        assertOneLineError(try authcat.run(["code", "--json"]), containing: "no accounts in", status: 1)
    }

    func testHOTPAdvancesTheCounterWithRFC4226Values() throws {
        try add("counter", issuer: "HOTP", ["--type", "hotp"])
        let codes = try (0..<4).map { _ in try succeed(["code", "counter"]) }
        XCTAssertEqual(codes, ["755224\n", "287082\n", "359152\n", "969429\n"])
        XCTAssertEqual(try listedAccounts().first?["counter"] as? Int, 4)
        let json = try object(try succeed(["code", "counter", "--json"]))
        XCTAssertEqual(json["code"] as? String, "338314")
        XCTAssertTrue(json["valid_until"] is NSNull)
        XCTAssertTrue(json["period"] is NSNull)
    }

    func testHOTPStartsAtTheGivenCounter() throws {
        try add("counter", ["--type", "hotp", "--counter", "9"])
        XCTAssertEqual(try succeed(["code", "counter"]), "520489\n")
    }

    func testTOTPCodeWritesNoHistory() throws {
        try add("rfc")
        let before = try VaultSnapshot.take(authcat)
        try succeed(["code", "rfc"])
        try succeed(["code"])
        let after = try VaultSnapshot.take(authcat)
        XCTAssertEqual(after.historyCount, before.historyCount)
        XCTAssertEqual(after.listing, before.listing)
        XCTAssertEqual(after.changedFiles(comparedTo: before), [])
    }

    func testSteamCodeHasFiveSteamCharacters() throws {
        try add("gaben", issuer: "Steam", ["--type", "steam"])
        let code = try succeed(["code", "gaben", "--at", "59"]).trimmingCharacters(in: .newlines)
        XCTAssertEqual(code.count, 5)
        XCTAssertTrue(code.allSatisfy { "23456789BCDFGHJKMNPQRTVWXY".contains($0) }, code)
    }

    func testCopyHandsTheCodeToTheClipboardTool() throws {
        try add("rfc")
        let bin = authcat.root.appendingPathComponent("bin")
        let copied = authcat.root.appendingPathComponent("copied.txt")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("xclip")
        try "#!/bin/sh\necho \"$@\" > '\(copied.path).args'\ncat > '\(copied.path)'\n".write(
            to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let result = try authcat.run(
            ["code", "rfc", "--at", "59", "--copy"], environment: ["PATH": "\(bin.path):/usr/bin:/bin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "287082\n")
        XCTAssertEqual(try String(contentsOf: copied, encoding: .utf8), "287082")
        XCTAssertEqual(
            try String(contentsOf: URL(fileURLWithPath: copied.path + ".args"), encoding: .utf8),
            "-selection clipboard\n")
    }

    /// Without a clipboard tool the code is still printed, with a warning,
    /// as when a tool fails (no display): the user asked for a code.
    func testCopyWithoutAnyClipboardToolPrintsTheCodeAndWarns() throws {
        try add("rfc")
        let empty = authcat.root.appendingPathComponent("empty-bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try authcat.run(["code", "rfc", "--at", "59", "--copy"], environment: ["PATH": empty.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "287082\n")
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(
            result.stderr.hasPrefix("authcat: warning: no clipboard tool found, so the code was not copied"),
            result.stderr)
    }

    func testCopyNeedsAQuery() throws {
        try add("rfc")
        assertOneLineError(try authcat.run(["code", "--copy"]), containing: "--copy needs a QUERY", status: 64)
    }

    private func object(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }
}
