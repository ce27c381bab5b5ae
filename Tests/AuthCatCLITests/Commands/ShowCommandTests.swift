import Foundation
import XCTest

final class ShowCommandTests: AuthCatTestCase {
    func testShowPrintsDetailsWithoutTheSecret() throws {
        let id = try add(
            "alice@example.com", issuer: "GitHub", ["--tag", "work", "--note", "recovery codes in the safe"])
        let output = try succeed(["show", "github"])
        XCTAssertFalse(output.contains(Self.rfcSecret))
        let fields = Dictionary(
            uniqueKeysWithValues: output.split(separator: "\n").map { line -> (String, String) in
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
            })
        XCTAssertEqual(fields["id"], id)
        XCTAssertEqual(fields["issuer"], "GitHub")
        XCTAssertEqual(fields["name"], "alice@example.com")
        XCTAssertEqual(fields["type"], "totp")
        XCTAssertEqual(fields["algorithm"], "sha1")
        XCTAssertEqual(fields["digits"], "6")
        XCTAssertEqual(fields["period"], "30s")
        XCTAssertEqual(fields["tags"], "work")
        XCTAssertEqual(fields["note"], "recovery codes in the safe")
        XCTAssertNotNil(fields["created"])
        XCTAssertNotNil(fields["updated"])
    }

    func testShowURIPrintsTheSecretAndRoundTripsThroughAdd() throws {
        try add(
            "counter@example.com", issuer: "ACME Co",
            ["--type", "hotp", "--counter", "5", "--digits", "8", "--algorithm", "sha256"])
        let uri = try succeed(["show", "acme", "--uri"]).trimmingCharacters(in: .newlines)
        XCTAssertTrue(uri.hasPrefix("otpauth://hotp/ACME%20Co:counter@example.com?"), uri)
        XCTAssertTrue(uri.contains("secret=\(Self.rfcSecret)"), uri)
        XCTAssertTrue(uri.contains("counter=5"), uri)

        let other = try AuthCatRunner()
        defer { other.removeFiles() }
        let added = try other.run(["add", "--uri"], stdin: Data(uri.utf8))
        XCTAssertEqual(added.status, 0, added.stderr)
        let copied = try other.run(["list", "--json"]).stdout
        XCTAssertEqual(normalized(copied), normalized(try succeed(["list", "--json"])))
    }

    func testShowNeedsOneAccount() throws {
        try add("a", issuer: "Same")
        try add("b", issuer: "Same")
        assertOneLineError(try authcat.run(["show", "same"]), containing: "matches 2 accounts", status: 1)
        assertOneLineError(try authcat.run(["show", "none"]), containing: "no account matches", status: 1)
        assertOneLineError(try authcat.run(["show"]), status: 64)
    }

    /// `list --json` without the ids, which differ between vaults.
    private func normalized(_ json: String) -> [String] {
        json.split(separator: "\n").filter { !$0.contains("\"id\"") }.map(String.init)
    }
}
