import Foundation
import XCTest

final class RemoveCommandTests: AuthCatTestCase {
    func testRemoveWithYesDeletesTheAccount() throws {
        let id = try add("alice", issuer: "GitHub")
        try add("bob", issuer: "GitLab")
        let output = try succeed(["rm", "github", "--yes"])
        XCTAssertEqual(output, "removed GitHub:alice; 'authcat restore \(id)' brings it back\n")
        XCTAssertEqual(try listedAccounts().map { $0["name"] as? String }, ["bob"])
        assertOneLineError(try authcat.run(["code", "github"]), containing: "no account matches", status: 1)
    }

    func testWithoutTerminalAndWithoutYesRemoveRefuses() throws {
        try add("alice")
        let before = try VaultSnapshot.take(authcat)
        let result = try authcat.run(["rm", "alice"], stdin: Data("y\n".utf8))
        assertOneLineError(result, containing: "pass --yes", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    func testRemoveAliasAndShortFlag() throws {
        try add("alice")
        try succeed(["remove", "alice", "-y"])
        XCTAssertEqual(try listedAccounts().count, 0)
    }

    func testRemovingAnUnknownAccountFails() throws {
        try add("alice")
        assertOneLineError(try authcat.run(["rm", "nobody", "--yes"]), containing: "no account matches", status: 1)
    }
}
