import Foundation
import XCTest

final class RestoreCommandTests: AuthCatTestCase {
    func testRestoreBringsBackARemovedAccountWithItsSecret() throws {
        let id = try add("alice", issuer: "GitHub", ["--tag", "work"])
        try succeed(["rm", id, "--yes"])
        XCTAssertEqual(try succeed(["restore", "github"]), "restored GitHub:alice\n")
        let account = try XCTUnwrap(try listedAccounts().first)
        XCTAssertEqual(account["id"] as? String, id)
        XCTAssertEqual(account["tags"] as? [String], ["work"])
        XCTAssertEqual(try succeed(["code", "github", "--at", "59"]), "287082\n")
    }

    func testRestoreMatchesOnlyRemovedAccounts() throws {
        try add("alice", issuer: "GitHub")
        assertOneLineError(
            try authcat.run(["restore", "github"]), containing: "nothing to restore: GitHub:alice is not removed",
            status: 1)
    }

    func testTheSameNameRemovedTwiceNeedsTheID() throws {
        let first = try add("alice", issuer: "GitHub")
        try succeed(["rm", first, "--yes"])
        let second = try add("alice", issuer: "GitHub", secret: Self.otherSecret)
        try succeed(["rm", second, "--yes"])
        let result = try authcat.run(["restore", "GitHub:alice"])
        assertOneLineError(result, containing: "matches 2 accounts", status: 1)
        XCTAssertTrue(result.stderr.contains(first) && result.stderr.contains(second), result.stderr)
        try succeed(["restore", first])
        XCTAssertEqual(try listedAccounts().first?["id"] as? String, first)
    }

    func testRestoreIsRefusedWhileALiveAccountHasTheName() throws {
        let old = try add("alice", issuer: "GitHub")
        try succeed(["rm", old, "--yes"])
        try add("alice", issuer: "GitHub", secret: Self.otherSecret)
        let before = try VaultSnapshot.take(authcat)
        assertOneLineError(try authcat.run(["restore", old]), containing: "already exists", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }
}
