import AuthCatEssentials
import Foundation
import XCTest

final class PassphraseCommandTests: AuthCatTestCase {
    func testSetThenSecretsNeedThePassphraseButLabelsDoNot() throws {
        try add("alice", issuer: "GitHub")
        let pass = try file("pass", "correct horse battery staple\n")
        XCTAssertEqual(
            try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": pass]).isEmpty, false)
        let keyFile = try String(contentsOf: authcat.keyFileURL, encoding: .utf8)
        XCTAssertTrue(keyFile.contains("\"passphrase\""), keyFile)

        assertOneLineError(try authcat.run(["code", "github"]), containing: "AUTHCAT_PASSPHRASE_FILE", status: 1)
        XCTAssertEqual(
            try succeed(["code", "github", "--at", "59"], environment: ["AUTHCAT_PASSPHRASE_FILE": pass]), "287082\n")
        XCTAssertEqual(try listedAccounts().count, 1, "list reads labels only")
        try succeed(["history"])
        let added = try authcat.run(
            ["add", "bob"], stdin: Data(Self.otherSecret.utf8), environment: ["AUTHCAT_PASSPHRASE_FILE": pass])
        XCTAssertEqual(added.status, 0, added.stderr)
    }

    /// The programs of the tests' build (`scripts/test`) give a new passphrase the
    /// cheapest key derivation only when the tests ask; any other build, and
    /// that one when not asked, gives libsodium's interactive limits.
    func testOnlyTheTestsBuildHashesCheaplyAndOnlyWhenAsked() throws {
        try add("alice", issuer: "GitHub")
        func memoryLimitAfter(_ arguments: [String], asking: Bool) throws -> Int? {
            let pass = try file("pass", "correct horse battery staple\n")
            let run = try authcat.runAsProcess(
                arguments,
                environment: [
                    "AUTHCAT_PASSPHRASE_FILE": pass, "AUTHCAT_NEW_PASSPHRASE_FILE": pass,
                    "AUTHCAT_TEST_CHEAPEST_KDF": asking ? "1" : "0",
                ])
            XCTAssertEqual(run.status, 0, run.stderr)
            let keyFile = try JSONSerialization.jsonObject(with: Data(contentsOf: authcat.keyFileURL)) as? [String: Any]
            return (keyFile?["kdf"] as? [String: Any])?["memLimit"] as? Int
        }
        let interactive = Int(try KDFParameters.interactive().memLimit)
        #if AUTHCAT_TEST_BUILD
            let whenAsked = Int(KDFParameters.minimumMemLimit)
        #else
            let whenAsked = interactive
        #endif
        XCTAssertEqual(try memoryLimitAfter(["passphrase", "set"], asking: true), whenAsked)
        XCTAssertEqual(try memoryLimitAfter(["passphrase", "change"], asking: false), interactive)
    }

    func testWrongPassphraseIsAClearErrorAndChangesNothing() throws {
        try add("counter", ["--type", "hotp"])
        try succeed(
            ["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": try file("pass", "right horse\n")])
        let wrong = ["AUTHCAT_PASSPHRASE_FILE": try file("wrong", "wrong\n")]
        let before = try VaultSnapshot.take(authcat)
        assertOneLineError(
            try authcat.run(["code", "counter"], environment: wrong), containing: "wrong passphrase", status: 1)
        assertOneLineError(
            try authcat.run(["add", "x"], stdin: Data(Self.otherSecret.utf8), environment: wrong),
            containing: "wrong passphrase", status: 1)
        assertOneLineError(
            try authcat.run(["show", "counter", "--uri"], environment: wrong), containing: "wrong passphrase", status: 1
        )
        assertOneLineError(
            try authcat.run(
                ["passphrase", "change"],
                environment: wrong.merging(["AUTHCAT_NEW_PASSPHRASE_FILE": try file("new", "new battery\n")]) { $1 }),
            containing: "wrong passphrase", status: 1)
        assertOneLineError(
            try authcat.run(["passphrase", "remove"], environment: wrong), containing: "wrong passphrase", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    /// One rule for every new passphrase (vault, backup, sync): at least 8 characters, said before the prompt.
    func testTooShortNewPassphrasesAreRefusedAndChangeNothing() throws {
        try add("alice", issuer: "GitHub")
        let before = try VaultSnapshot.take(authcat)
        let short = try file("short", "abc\n")
        assertOneLineError(
            try authcat.run(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": short]),
            containing: "the new passphrase must be at least 8 characters long; nothing was changed", status: 1)
        let backup = authcat.root.appendingPathComponent("b.authcat").path
        assertOneLineError(
            try authcat.run(
                ["backup", "--output", backup, "--kdf", "interactive"],
                environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": short]),
            containing: "the backup passphrase must be at least 8 characters long", status: 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: backup))
        // Eight characters, some of several bytes, are enough; seven are not.
        assertOneLineError(
            try authcat.run(
                ["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": try file("seven", "äöüßéèê\n")]),
            containing: "at least 8 characters", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
        try succeed(
            ["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": try file("eight", "äöüßéèêë\n")])
    }

    func testChangeThenRemove() throws {
        try add("alice")
        let first = try file("first", "first passphrase\n")
        let second = try file("second", "second passphrase")
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": first])
        try succeed(
            ["passphrase", "change"],
            environment: ["AUTHCAT_PASSPHRASE_FILE": first, "AUTHCAT_NEW_PASSPHRASE_FILE": second])
        assertOneLineError(
            try authcat.run(["code", "alice"], environment: ["AUTHCAT_PASSPHRASE_FILE": first]),
            containing: "wrong passphrase")
        XCTAssertEqual(
            try succeed(["code", "alice", "--at", "59"], environment: ["AUTHCAT_PASSPHRASE_FILE": second]), "287082\n")
        try succeed(["passphrase", "remove"], environment: ["AUTHCAT_PASSPHRASE_FILE": second])
        XCTAssertEqual(try succeed(["code", "alice", "--at", "59"]), "287082\n")
        XCTAssertFalse(try String(contentsOf: authcat.keyFileURL, encoding: .utf8).contains("\"passphrase\""))
    }

    func testOnlyTheFirstLineOfThePassphraseFileCounts() throws {
        try add("alice")
        try succeed(
            ["passphrase", "set"],
            environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": try file("new", "one line\r\nignored\n")])
        XCTAssertEqual(
            try succeed(
                ["code", "alice", "--at", "59"], environment: ["AUTHCAT_PASSPHRASE_FILE": try file("same", "one line")]),
            "287082\n")
    }

    func testMisuseIsRefusedWithoutChangingAnything() throws {
        try add("alice")
        assertOneLineError(try authcat.run(["passphrase", "change"]), containing: "no passphrase is set", status: 1)
        assertOneLineError(try authcat.run(["passphrase", "remove"]), containing: "no passphrase is set", status: 1)
        assertOneLineError(
            try authcat.run(["passphrase", "set"]), containing: "AUTHCAT_NEW_PASSPHRASE_FILE", status: 1)
        assertOneLineError(
            try authcat.run(
                ["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": try file("empty", "\n")]),
            containing: "empty", status: 1)
        assertOneLineError(
            try authcat.run(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": "/nonexistent/pass"]),
            containing: "cannot read", status: 1)
        let pass = try file("pass", "passphrase\n")
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": pass])
        assertOneLineError(
            try authcat.run(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": pass]),
            containing: "already set", status: 1)
        assertOneLineError(try authcat.run(["passphrase", "set"], withHome: true), containing: "already set")
    }

    func testPassphraseCommandsNeedAVault() throws {
        assertOneLineError(try authcat.run(["passphrase", "set"]), containing: "no accounts in", status: 1)
    }

    private func file(_ name: String, _ content: String) throws -> String {
        let url = authcat.root.appendingPathComponent(name)
        try content.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
