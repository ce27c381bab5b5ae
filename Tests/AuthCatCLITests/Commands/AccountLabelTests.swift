import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatCommandLine

/// Labels (ISSUER:NAME) are how accounts are shown and named: add reads
/// one, no two accounts share one, and matching ignores case and accents,
/// in both programs and in completion.
final class AccountLabelTests: AuthCatTestCase {
    func testAddReadsIssuerColonNameAsIssuerAndName() throws {
        try add("GitHub:carl")
        try add(" Example : dana ")
        let accounts = try listedAccounts()
        XCTAssertEqual(accounts.map { $0["issuer"] as? String }, ["Example", "GitHub"])
        XCTAssertEqual(accounts.map { $0["name"] as? String }, ["dana", "carl"])
        // The same issuer twice is said once.
        try add("GitLab:erin", issuer: "gitlab")
        XCTAssertEqual(try listedAccounts().first { $0["name"] as? String == "erin" }?["issuer"] as? String, "gitlab")
        XCTAssertEqual(try succeed(["code", "GitHub:carl", "--at", "59"]), "287082\n")
    }

    /// With --issuer, NAME is the name, colons and all (unless it starts
    /// with that very issuer); --issuer "" keeps a colon in a name without one.
    func testWithIssuerGivenTheNameIsTakenAsItIs() throws {
        try add("Foo:carl", issuer: "GitHub")
        try add("x:y", issuer: "")
        let accounts = try listedAccounts()
        XCTAssertEqual(accounts.map { $0["name"] as? String }, ["x:y", "Foo:carl"])
        XCTAssertEqual(accounts.map { $0["issuer"] as? String }, [nil, "GitHub"])
    }

    /// The name `GitHub:carl` without an issuer and `carl` at GitHub would
    /// share a label that no query could tell apart: the second is refused,
    /// however it is made.
    func testNoTwoAccountsShareALabel() throws {
        try add("carl", issuer: "GitHub")
        let again = try authcat.run(["add", "GitHub:Carl"], stdin: Data("\(Self.rfcSecret)\n".utf8))
        assertOneLineError(again, containing: "an account named GitHub:Carl already exists", status: 1)
        try add("other")
        let renamed = try authcat.run(["edit", "other", "--name", "GitHub:carl"])
        assertOneLineError(renamed, containing: "an account named GitHub:carl already exists", status: 1)
        try add("x", issuer: "GitHub:carl")
        XCTAssertEqual(try listedAccounts().count, 3)
        XCTAssertEqual(try succeed(["code", "GitHub:carl", "--at", "59"]), "287082\n", "one account has that label")
    }

    /// A pair left from before (an older vault, an older device's sync)
    /// is listed with ids, which pick either.
    func testAccountsWithOneLabelAreListedWithTheirIDs() {
        let first = account("GitHub", "carl")
        let second = account("", "GitHub:carl")
        let third = account("GitLab", "carl")
        XCTAssertEqual(
            VaultError.distinctLabels([first, second, third]),
            ["GitHub:carl (id \(first.id.vaultString))", "GitHub:carl (id \(second.id.vaultString))", "GitLab:carl"])
    }

    /// `zoe` finds Zoë, as typed precomposed or decomposed, in both programs and in completion.
    func testMatchingIgnoresAccents() throws {
        try add("Zoë", issuer: "GitHub")
        try add("Łukasz", issuer: "Straße", secret: Self.otherSecret)
        for program in [AuthCatRunner.executableURL, AuthCatRunner.fullProgramURL] {
            for query in ["zoe", "ZOE", "github:zoe", "Zoe\u{308}", "zo"] {
                let result = try authcat.runAsProcess(program: program, ["code", query, "--at", "59"])
                XCTAssertEqual(result.stdout, "287082\n", "\(program.lastPathComponent) \(query): \(result.stderr)")
            }
            let strasse = try authcat.runAsProcess(program: program, ["code", "strasse:lukasz", "--at", "59"])
            XCTAssertEqual(strasse.status, 0, strasse.stderr)
        }
        XCTAssertEqual(
            AccountLabelCompletion.matching("zoe", in: try accounts().map(AccountName.init)).map { $0 }, ["GitHub:Zoë"])
        XCTAssertEqual(
            AccountLabelCompletion.matching("strasse:", in: try accounts().map(AccountName.init)), ["Straße:Łukasz"])
        XCTAssertEqual(AccountQuery.folded("Ærøskøbing ĲSSEL"), "aeroskobing ijssel")
    }

    func testListRemovedShowsWhatRestoreCanBringBack() throws {
        let id = try add("alice", issuer: "GitHub")
        try add("bob", issuer: "GitLab")
        XCTAssertEqual(try authcat.run(["list", "--removed"]).stderr, "authcat: no removed accounts\n")
        try succeed(["rm", id, "--yes"])
        let removed = try succeed(["list", "--removed"])
        XCTAssertTrue(removed.hasPrefix("GitHub:alice  \(id)  removed "), removed)
        XCTAssertFalse(removed.contains("GitLab"), removed)
        let json = try succeed(["list", "--removed", "--json"])
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        XCTAssertEqual(objects.map { $0["id"] as? String }, [id])
        XCTAssertNotNil(objects.first?["removed_at"] as? Int, json)
        try succeed(["restore", id])
        XCTAssertEqual(try authcat.run(["list", "--removed"]).stdout, "")
    }

    func testListTagShowsTheAccountsWithEveryTagGiven() throws {
        try add("alice", issuer: "GitHub", ["--tag", "work", "--tag", "code"])
        try add("bob", issuer: "GitLab", ["--tag", "work"])
        try add("carol", issuer: "Bank")
        XCTAssertEqual(
            try succeed(["list", "--tag", "work"]).split(separator: "\n").map { $0.split(separator: " ")[0] },
            ["GitHub:alice", "GitLab:bob"])
        XCTAssertEqual(
            try succeed(["list", "--tag", "work", "--tag", "code", "--json"]).components(separatedBy: "\"id\"").count, 2
        )
        assertOneLineError(
            try authcat.run(["list", "--tag", "home"]), containing: #"no account is tagged "home""#, status: 1)
    }

    func testUntagOfATagTheAccountLacksSaysSo() throws {
        try add("alice", issuer: "GitHub", ["--tag", "work"])
        let result = try authcat.run(["edit", "alice", "--untag", "wrok"])
        assertOneLineError(
            result, containing: #"the account GitHub:alice has no tag "wrok" (its tags: work); nothing was changed"#,
            status: 1)
        let both = try authcat.run(["edit", "alice", "--untag", "work", "--untag", "home"])
        assertOneLineError(both, containing: #"has no tag "home""#, status: 1)
        XCTAssertEqual(try listedAccounts().first?["tags"] as? [String], ["work"], "nothing was changed")
        try succeed(["edit", "alice", "--untag", "work"])
        XCTAssertEqual(try listedAccounts().first?["tags"] as? [String], [])
    }

    /// A blank tag names none: a usage error wherever tags are given, not a value quietly dropped.
    func testABlankTagIsAUsageError() throws {
        try add("alice", issuer: "GitHub", ["--tag", "work"])
        let commandLines = [
            ["edit", "alice", "--tag", ""], ["edit", "alice", "--untag", " "], ["list", "--tag", ""],
            ["add", "bob", "--tag", "\t"],
        ]
        for arguments in commandLines {
            let result = try authcat.run(arguments, stdin: Data("JBSWY3DPEHPK3PXP\n".utf8))
            assertOneLineError(result, containing: "takes a tag, not a blank value", status: 64)
        }
        XCTAssertEqual(try listedAccounts().map { $0["tags"] as? [String] }, [["work"]], "nothing was changed")
    }

    func testTagsCompleteFromTheVault() throws {
        try add("alice", issuer: "GitHub", ["--tag", "work", "--tag", "Wohnung"])
        try add("bob", issuer: "GitLab", ["--tag", "home"])
        let environment = ["AUTHCAT_HOME": authcat.home.path]
        for (command, option) in [("edit", "--tag"), ("edit", "--untag"), ("list", "--tag")] {
            let line = ["authcat", command, option, "wo"]
            let result = try authcat.runAsProcess(
                ["---completion", command, "--", option, "3", "2"] + line,
                environment: environment, withHome: false)
            XCTAssertEqual(
                result.stdoutLines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }, ["Wohnung", "work"],
                "\(command) \(option): \(result.stderr)")
        }
    }

    private func accounts() throws -> [Account] {
        try listedAccounts().map { object in account(object["issuer"] as? String ?? "", object["name"] as? String ?? "")
        }
    }

    private func account(_ issuer: String, _ name: String) -> Account {
        Account(id: UUID(), issuer: issuer, name: name, otp: OTPParameters(), createdAt: Date(), updatedAt: Date())
    }
}
