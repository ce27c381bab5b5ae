import Foundation
import XCTest

/// What `add`, `edit` and `import` take as an issuer or an account name
/// (`AccountNameRule`): UTF-8 only, at most 256 characters. Refused input is
/// one line on standard error, a non-zero status, and the vault as it was.
final class AccountNameRuleTests: AuthCatTestCase {
    private static let longest = String(repeating: "n", count: 256)

    func testANameOfUpTo256CharactersIsTakenAndALongerOneRefused() throws {
        try add(Self.longest, issuer: "Example")
        try add("alice", issuer: String(repeating: "é", count: 256))
        let before = try listedAccounts().count
        let long = try authcat.run(
            ["add", Self.longest + "n", "--issuer", "Example"], stdin: Data("\(Self.rfcSecret)\n".utf8))
        assertOneLineError(
            long, containing: "the account name is 257 characters long; at most 256 are allowed", status: 1)
        let issuer = try authcat.run(
            ["add", "bob", "--issuer", String(repeating: "é", count: 300)], stdin: Data("\(Self.rfcSecret)\n".utf8))
        assertOneLineError(issuer, containing: "the issuer is 300 characters long; at most 256 are allowed", status: 1)
        XCTAssertEqual(try listedAccounts().count, before, "a refused add changes nothing")
    }

    /// Said before the secret is asked for, and before a first vault is made.
    func testAddRefusesALongNameBeforeTheSecret() throws {
        let result = try authcat.runInTerminal(["add", Self.longest + "n", "--issuer", "Example"])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertFalse(result.stdout.contains("secret for"), result.stdout)
        XCTAssertTrue(result.stdout.contains("authcat: the account name is 257 characters long"), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.home.path), "no vault made for a refused name")
    }

    func testEditRefusesALongNameAndKeepsTheAccount() throws {
        try add("alice", issuer: "GitHub")
        let before = try listedAccounts()
        assertOneLineError(
            try authcat.run(["edit", "github", "--name", Self.longest + "x"]),
            containing: "the account name is 257 characters long", status: 1)
        assertOneLineError(
            try authcat.run(["edit", "github", "--issuer", Self.longest + "x"]),
            containing: "the issuer is 257 characters long", status: 1)
        XCTAssertEqual(try listedAccounts().map { $0["name"] as? String }, before.map { $0["name"] as? String })
        XCTAssertEqual(try listedAccounts().map { $0["issuer"] as? String }, ["GitHub"])
    }

    /// Bytes that are not UTF-8, as a shell passes them (`$'\xff'`): refused,
    /// saying what the name would have read as.
    func testANameThatIsNotUTF8IsRefused() throws {
        try add("alice", issuer: "GitHub")
        let result = try authcat.shell(
            """
            printf '%s\\n' \(Self.rfcSecret) | authcat add $'caf\\xe9' --issuer Example
            """)
        assertOneLineError(
            result, containing: "the account name is not valid UTF-8: it would read 'caf\u{FFFD}'", status: 1)
        let issuer = try authcat.shell("authcat edit github --issuer $'Git\\xffHub'")
        assertOneLineError(issuer, containing: "the issuer is not valid UTF-8", status: 1)
        XCTAssertEqual(try listedAccounts().map { $0["issuer"] as? String }, ["GitHub"])
        XCTAssertEqual(try listedAccounts().count, 1)
    }

    func testAnImportWithALongOrBrokenNameImportsNothing() throws {
        try add("alice", issuer: "GitHub")
        let long = authcat.root.appendingPathComponent("long.txt")
        let longName = String(repeating: "x", count: 300)
        try Data(
            """
            otpauth://totp/Example:bob?secret=\(Self.rfcSecret)&issuer=Example
            otpauth://totp/Example:\(longName)?secret=\(Self.rfcSecret)&issuer=Example

            """.utf8
        ).write(to: long)
        let refused = try authcat.run(["import", long.path])
        assertOneLineError(refused, containing: "the account name is 300 characters long", status: 1)
        // A label percent-encoded from bytes that are not UTF-8 (%E9 alone).
        let broken = authcat.root.appendingPathComponent("broken.txt")
        try Data("otpauth://totp/Example:caf%E9?secret=\(Self.rfcSecret)&issuer=Example\n".utf8).write(to: broken)
        let result = try authcat.run(["import", broken.path])
        XCTAssertNotEqual(result.status, 0, result.stdout)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("authcat: "), result.stderr)
        XCTAssertEqual(try listedAccounts().map { $0["name"] as? String }, ["alice"], "nothing imported")
    }
}
