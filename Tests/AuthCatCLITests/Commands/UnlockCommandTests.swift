import Foundation
import XCTest

/// `authcat unlock` keeps the vault key in the kernel keyring; every command,
/// the quick front included, then needs no passphrase until `authcat lock`.
final class UnlockCommandTests: AuthCatTestCase {
    private var passphrase: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try add("rfc", issuer: "Test")
        let file = authcat.root.appendingPathComponent("passphrase")
        try Data("correct horse\n".utf8).write(to: file)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": file.path])
        passphrase = ["AUTHCAT_PASSPHRASE_FILE": file.path]
    }

    override func tearDown() {
        // The keyring outlives the test's folder: never leave a key in it.
        _ = try? authcat.run(["lock"])
        super.tearDown()
    }

    func testUnlockedCodesNeedNoPassphraseAndTheFrontAnswersThem() throws {
        assertOneLineError(try authcat.run(["code", "rfc"]), containing: "AUTHCAT_PASSPHRASE_FILE", status: 1)
        let unlocked = try succeed(["unlock", "--for", "10m"], environment: passphrase)
        XCTAssertTrue(unlocked.hasPrefix("unlocked for 10m"), unlocked)
        XCTAssertEqual(try succeed(["code", "rfc", "--at", "59"]), "287082\n")
        let front = try authcat.runAsProcess(program: try loneFront(), ["code", "rfc", "--at", "59"])
        XCTAssertEqual(front.status, 0, front.stderr)
        XCTAssertEqual(front.stdout, "287082\n")
        try add("bob", secret: Self.otherSecret)
        XCTAssertEqual(try succeed(["lock"]), "locked\n")
        assertOneLineError(try authcat.run(["code", "rfc"]), containing: "AUTHCAT_PASSPHRASE_FILE", status: 1)
        XCTAssertEqual(try succeed(["lock"]), "the vault was not unlocked\n")
    }

    func testStatusSaysHowLongAndExitsTwoWhenLocked() throws {
        let locked = try authcat.run(["unlock", "--status", "--json"])
        XCTAssertEqual(locked.status, 2, locked.stderr)
        let lockedJSON = try XCTUnwrap(try locked.json() as? [String: Any])
        XCTAssertEqual(lockedJSON["state"] as? String, "locked")
        XCTAssertTrue(lockedJSON["expires_at"] is NSNull)
        try succeed(["unlock", "--for", "2h"], environment: passphrase)
        let json = try XCTUnwrap(try authcat.run(["unlock", "--status", "--json"]).json() as? [String: Any])
        XCTAssertEqual(json["state"] as? String, "unlocked")
        let left = try XCTUnwrap(json["seconds_left"] as? Int)
        XCTAssertTrue((7100...7200).contains(left), "\(left)")
        let expires = try XCTUnwrap(json["expires_at"] as? Double)
        XCTAssertEqual(expires, Date().timeIntervalSince1970 + 7200, accuracy: 120)
        XCTAssertTrue(try succeed(["unlock", "--status"]).hasPrefix("unlocked until "))
    }

    func testTheKernelForgetsTheKeyWhenTheTimeRunsOut() throws {
        try succeed(["unlock", "--for", "1s"], environment: passphrase)
        let deadline = Date().addingTimeInterval(60)
        var status: Int32 = 0
        // The kernel expires the key on its own schedule; wait for it, at most a minute on a busy machine.
        while Date() < deadline {
            status = try authcat.run(["unlock", "--status"]).status
            if status == 2 { break }
            usleep(200_000)
        }
        XCTAssertEqual(status, 2)
        assertOneLineError(try authcat.run(["code", "rfc"]), containing: "AUTHCAT_PASSPHRASE_FILE", status: 1)
    }

    func testChangingOrRemovingThePassphraseLocksAndStillNeedsTheOldOne() throws {
        try succeed(["unlock"], environment: passphrase)
        let new = authcat.root.appendingPathComponent("new")
        try Data("battery staple\n".utf8).write(to: new)
        // Unlocked is not enough to change the passphrase: the current one is asked for.
        assertOneLineError(
            try authcat.run(["passphrase", "change"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": new.path]),
            containing: "AUTHCAT_PASSPHRASE_FILE", status: 1)
        try succeed(
            ["passphrase", "change"], environment: passphrase.merging(["AUTHCAT_NEW_PASSPHRASE_FILE": new.path]) { $1 })
        XCTAssertEqual(try authcat.run(["unlock", "--status"]).status, 2)
        try succeed(["unlock"], environment: ["AUTHCAT_PASSPHRASE_FILE": new.path])
        try succeed(["passphrase", "remove"], environment: ["AUTHCAT_PASSPHRASE_FILE": new.path])
        XCTAssertEqual(
            try succeed(["unlock", "--status"]), "the vault has no passphrase; authcat never asks for one\n")
    }

    func testBadInputIsRefusedWithoutUnlocking() throws {
        for duration in ["0", "-5m", "10x", "31d", "99999999999999999999"] {
            let result = try authcat.run(["unlock", "--for", duration], environment: passphrase)
            XCTAssertEqual(result.status, 64, "\(duration): \(result.stderr)")
        }
        let wrong = authcat.root.appendingPathComponent("wrong")
        try Data("wrong\n".utf8).write(to: wrong)
        assertOneLineError(
            try authcat.run(["unlock"], environment: ["AUTHCAT_PASSPHRASE_FILE": wrong.path]),
            containing: "wrong passphrase", status: 1)
        XCTAssertEqual(try authcat.run(["unlock", "--status"]).status, 2)
    }
}
