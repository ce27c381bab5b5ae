import Foundation
import XCTest

final class HistoryCommandTests: AuthCatTestCase {
    func testHistoryRecordsAuthorsKindsAndFieldsNewestFirst() throws {
        let id = try add("alice", issuer: "GitHub")
        try add("counter", ["--type", "hotp"])
        try succeed(["code", "counter"])
        try succeed(["code", "github"])
        try succeed(["edit", "github", "--note", "n"])
        try succeed(["rm", "github", "--yes"])
        try succeed(["restore", id])

        let entries = try history([])
        XCTAssertEqual(
            entries.map { $0["author"] as? String }, ["restore", "cli", "cli", "cli", "cli", "cli"],
            "TOTP codes write no history")
        let numbers = entries.compactMap { $0["number"] as? Int }
        XCTAssertEqual(numbers, numbers.sorted(by: >))
        let changes = entries.compactMap { ($0["changes"] as? [[String: Any]])?.first }
        XCTAssertEqual(
            changes.map { $0["kind"] as? String }, ["insert", "delete", "update", "update", "insert", "insert"])
        XCTAssertEqual(changes[2]["fields"] as? [String], ["note"])
        XCTAssertEqual(changes[3]["fields"] as? [String], ["counter"])
        XCTAssertEqual(changes[0]["label"] as? String, "GitHub:alice")
        XCTAssertEqual(changes[0]["record_id"] as? String, id)
        XCTAssertEqual(changes[0]["entity"] as? String, "account")
        let first = entries[0]
        XCTAssertEqual(Set(first.keys), ["number", "timestamp", "author", "device", "changes"])
        XCTAssertNotNil((first["device"] as? [String: Any])?["name"] as? String)
        XCTAssertNotNil(first["timestamp"] as? Double)
    }

    func testQueryAndLimitNarrowTheHistory() throws {
        let id = try add("alice", issuer: "GitHub")
        try add("bob", issuer: "GitLab")
        try succeed(["edit", "gitlab", "--note", "x"])
        try succeed(["rm", id, "--yes"])
        let alice = try history(["GitHub:alice"])
        XCTAssertEqual(alice.count, 2, "removed accounts can still be asked about")
        XCTAssertTrue(
            alice.allSatisfy {
                (($0["changes"] as? [[String: Any]]) ?? []).allSatisfy { $0["record_id"] as? String == id }
            })
        XCTAssertEqual(try history(["--limit", "1"]).count, 1)
        XCTAssertEqual(try history(["--limit", "0"]).count, 4, "0 shows every transaction")
        assertOneLineError(try authcat.run(["history", "--limit", "-3"]), containing: "--limit must be 0", status: 64)
    }

    func testHistoryShowsADefaultPageAndSaysHowToSeeMore() throws {
        try add("alice", issuer: "GitHub")
        for note in 1...20 { try succeed(["edit", "github", "--note", "n\(note)"]) }
        let page = try authcat.run(["history"])
        XCTAssertEqual(page.status, 0)
        let lines = page.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 20)
        XCTAssertTrue(lines[0].hasPrefix("#21  "), String(lines[0]))
        XCTAssertTrue(page.stderr.contains("--limit 0 shows all"), page.stderr)
        let all = try authcat.run(["history", "--limit", "0"])
        XCTAssertEqual(all.stdout.split(separator: "\n").count, 21)
        XCTAssertEqual(all.stderr, "", "nothing was cut")
        XCTAssertEqual(try authcat.run(["history", "--limit", "21"]).stderr, "")
    }

    func testTextHistoryShowsOneLinePerChange() throws {
        try add("alice", issuer: "GitHub")
        try succeed(["edit", "github", "--tag", "t"])
        let lines = try succeed(["history"]).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("#2  "), lines[0])
        XCTAssertTrue(lines[0].contains("  cli  ") && lines[0].contains("  update  GitHub:alice  tags"), lines[0])
        XCTAssertTrue(lines[1].contains("  insert  GitHub:alice"), lines[1])
    }

    /// An import is one transaction of a change per account: the text shows
    /// its first 20 changes and says how many more there are.
    func testABigTransactionShowsItsFirstChangesAndHowManyMore() throws {
        let uris = (1...25).map { "otpauth://totp/Issuer\($0):user\($0)?secret=\(Self.rfcSecret)" }.joined(
            separator: "\n")
        let file = authcat.root.appendingPathComponent("uris.txt")
        try Data((uris + "\n").utf8).write(to: file)
        try succeed(["import", "--format", "otpauth", file.path])
        let page = try authcat.run(["history"])
        XCTAssertEqual(page.status, 0, page.stderr)
        let lines = page.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 21)
        XCTAssertTrue(lines[0].contains("  insert  Issuer1:user1"), lines[0])
        XCTAssertTrue(lines[19].contains("  insert  Issuer20:user20"), lines[19])
        let device = try deviceName()
        XCTAssertTrue(
            lines[20].hasPrefix("#1  ") && lines[20].hasSuffix("  import  \(device)  …       and 5 more changes"),
            lines[20])
        XCTAssertEqual(page.stderr, "authcat: showing the first 20 changes of a transaction; --all-changes shows all\n")
        let all = try authcat.run(["history", "--all-changes"])
        XCTAssertEqual(all.stdout.split(separator: "\n").count, 25)
        XCTAssertEqual(all.stderr, "")
        let changes = try history([]).first?["changes"] as? [[String: Any]]
        XCTAssertEqual(changes?.count, 25, "--json shows every change")
        let one = try authcat.run(["history", "Issuer25:user25"])
        XCTAssertEqual(
            one.stdout.split(separator: "\n").count, 1, "with QUERY only its change is shown, even past the first 20")
        XCTAssertTrue(one.stdout.contains("  insert  Issuer25:user25"), one.stdout)
        XCTAssertEqual(one.stderr, "")
    }

    private func deviceName() throws -> String {
        let entry = try XCTUnwrap(try history([]).first)
        return try XCTUnwrap((entry["device"] as? [String: Any])?["name"] as? String)
    }

    /// No vault is no accounts, as for list and code: status 1, with --json too.
    func testWithoutVaultHistorySaysThereAreNoAccounts() throws {
        assertOneLineError(try authcat.run(["history"]), containing: "no accounts in", status: 1)
        assertOneLineError(try authcat.run(["history", "--json"]), containing: "no accounts in", status: 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.home.path))
    }

    private func history(_ arguments: [String]) throws -> [[String: Any]] {
        let output = try succeed(["history", "--json"] + arguments)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    }
}
