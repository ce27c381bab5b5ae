import Foundation
import XCTest

/// How commands find the account a user names (`AccountQuery`), as a user sees it.
final class AccountLookupTests: AuthCatTestCase {
    func testAWholeIssuerWinsOverAPartInBothPrograms() throws {
        try add("alice", issuer: "Tiny")
        try add("bob", issuer: "Tiny2", secret: Self.otherSecret)
        XCTAssertEqual(try succeed(["code", "tiny", "--at", "59"]), "287082\n")
        let json = try XCTUnwrap(try authcat.run(["code", "tiny", "--json"]).json() as? [String: Any])
        XCTAssertEqual(json["issuer"] as? String, "Tiny")
        assertOneLineError(
            try authcat.run(["code", "tin"]), containing: "'tin' matches 2 accounts: Tiny:alice, Tiny2:bob", status: 1)
    }

    func testAnAmbiguousQueryNamesAFewAndCountsTheRest() throws {
        let uris = (1...30).map { "otpauth://totp/Shop\($0):user\($0)?secret=JBSWY3DPEHPK3PXP" }.joined(separator: "\n")
        let file = authcat.root.appendingPathComponent("uris.txt")
        try Data(uris.utf8).write(to: file)
        try succeed(["import", "--format", "otpauth", file.path])
        let result = try authcat.run(["code", "user"])
        assertOneLineError(result, containing: "'user' matches 30 accounts: ", status: 1)
        XCTAssertTrue(result.stderr.contains(" and 22 more"), result.stderr)
        XCTAssertLessThan(result.stderr.count, 400)
    }

    func testRestoringALiveAccountSaysItIsNotRemoved() throws {
        try add("bob", issuer: "Example")
        let before = try VaultSnapshot.take(authcat)
        assertOneLineError(
            try authcat.run(["restore", "bob"]), containing: "nothing to restore: Example:bob is not removed", status: 1
        )
        assertOneLineError(
            try authcat.run(["restore", "nobody"]), containing: "no account matches 'nobody'", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    /// A secret pasted as a query never reaches the terminal, in either
    /// program; a mistyped name still shows, so that the typo can be seen.
    func testASecretPastedAsAQueryIsNotEchoed() throws {
        try add("alice", issuer: "GitHub")
        let front = try loneFront()
        for secret in [Self.rfcSecret, "jbsw y3dp ehpk 3pxp"] {
            for result in [
                try authcat.run(["code", secret]), try authcat.runAsProcess(program: front, ["code", secret]),
            ] {
                assertOneLineError(
                    result, containing: "no account matches the query (not shown: it could be a secret)", status: 1)
                XCTAssertFalse(result.stderr.lowercased().contains(secret.lowercased()), result.stderr)
            }
        }
        assertOneLineError(try authcat.run(["code", "githib"]), containing: "no account matches 'githib'", status: 1)
    }
}
