import Foundation
import XCTest

final class EditCommandTests: AuthCatTestCase {
    func testEditRenamesAndRecordsOnlyTheChangedFields() throws {
        let id = try add("alice", issuer: "GitHub")
        XCTAssertEqual(
            try succeed(["edit", "github", "--name", "alice@work", "--issuer", "GitHub Inc"]),
            "updated GitHub Inc:alice@work\n")
        let account = try XCTUnwrap(try listedAccounts().first)
        XCTAssertEqual(account["id"] as? String, id)
        XCTAssertEqual(account["name"] as? String, "alice@work")
        XCTAssertEqual(account["issuer"] as? String, "GitHub Inc")
        let history = try historyJSON()
        let change = try XCTUnwrap((history.first?["changes"] as? [[String: Any]])?.first)
        XCTAssertEqual(change["kind"] as? String, "update")
        XCTAssertEqual(change["fields"] as? [String], ["issuer", "name"])
        XCTAssertEqual(try succeed(["code", "alice@work", "--at", "59"]), "287082\n", "the secret is untouched")
    }

    func testTagsAreAddedRemovedAndCleared() throws {
        try add("a", ["--tag", "one", "--tag", "two"])
        try succeed(["edit", "a", "--tag", "three", "--untag", "one"])
        XCTAssertEqual(try listedAccounts().first?["tags"] as? [String], ["three", "two"])
        try succeed(["edit", "a", "--clear-tags", "--tag", "fresh"])
        XCTAssertEqual(try listedAccounts().first?["tags"] as? [String], ["fresh"])
        try succeed(["edit", "a", "--clear-tags"])
        XCTAssertEqual(try listedAccounts().first?["tags"] as? [String], [])
    }

    func testNoteAndEmptyIssuer() throws {
        try add("a", issuer: "Someone")
        try succeed(["edit", "someone", "--note", "hello", "--issuer", ""])
        XCTAssertTrue(try listedAccounts().first?["issuer"] is NSNull, "no issuer is null in JSON")
        XCTAssertTrue(try succeed(["show", "a"]).contains("hello"))
    }

    func testEditWithoutChangesIsAUsageErrorAndSameValuesChangeNothing() throws {
        try add("a", issuer: "X")
        assertOneLineError(try authcat.run(["edit", "a"]), containing: "nothing to change", status: 64)
        let historyBefore = try historyJSON().count
        let output = try succeed(["edit", "a", "--issuer", "X"])
        XCTAssertTrue(output.contains("nothing changed"), output)
        XCTAssertEqual(try historyJSON().count, historyBefore)
    }

    func testRenamingOntoAnotherAccountIsRefused() throws {
        try add("a", issuer: "X")
        try add("b", issuer: "X")
        let before = try VaultSnapshot.take(authcat)
        assertOneLineError(try authcat.run(["edit", "X:b", "--name", "A"]), containing: "already exists", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    func testEmptyNameIsRefused() throws {
        try add("a")
        assertOneLineError(try authcat.run(["edit", "a", "--name", " "]), containing: "name", status: 1)
    }

    private func historyJSON() throws -> [[String: Any]] {
        try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try succeed(["history", "--json"]).utf8)) as? [[String: Any]])
    }
}
