import Foundation
import XCTest

/// `authcat config`: local settings and synced preferences, with the quota.
final class ConfigCommandTests: AuthCatTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try add("alice", issuer: "GitHub")
    }

    func testLocalSettingsSetGetListUnset() throws {
        try succeed(["config", "set", "clipboard.keep", "true"])
        try succeed(["config", "set", "user.beta", "two words"])
        XCTAssertEqual(try succeed(["config", "get", "clipboard.keep"]), "true\n")
        XCTAssertEqual(try succeed(["config", "list"]), "clipboard.keep=true\nuser.beta=two words\n")
        XCTAssertEqual(try succeed(["config", "list", "--synced"]), "", "local settings are not synced preferences")
        try succeed(["config", "unset", "clipboard.keep"])
        try succeed(["config", "unset", "clipboard.keep"])
        assertOneLineError(
            try authcat.run(["config", "get", "clipboard.keep"]),
            containing: "no local setting named \"clipboard.keep\"", status: 1)
        XCTAssertEqual(
            try succeed(["history", "--json"]).contains("beta"), false, "local settings stay out of history")
    }

    /// A key or value config set does not take is a usage error (64).
    func testOnlyKeysAuthcatReadsOrUserKeysAreAccepted() throws {
        let before = try VaultSnapshot.take(authcat)
        assertOneLineError(
            try authcat.run(["config", "set", "theme", "dark"]),
            containing:
                "\"theme\" is not a setting authcat reads; see 'authcat config --help', or name a setting of your own user.NAME",
            status: 64)
        assertOneLineError(
            try authcat.run(["config", "set", "history.limt", "5"]), containing: "did you mean \"history.limit\"?",
            status: 64)
        assertOneLineError(
            try authcat.run(["config", "set", "history.limit", "--", "-1"]),
            containing: "history.limit takes a number of transactions, 0 for all", status: 64)
        assertOneLineError(
            try authcat.run(["config", "set", "history.limit", "all"]), containing: "history.limit takes a number",
            status: 64)
        assertOneLineError(
            try authcat.run(["config", "set", "clipboard.keep", "yes"]),
            containing: "clipboard.keep takes true or false", status: 64)
        assertOneLineError(
            try authcat.run(["config", "set", "--synced", "history.limit", "5"]),
            containing: "synced preferences are your own, named user.NAME", status: 64)
        assertOneLineError(
            try authcat.run(["config", "set", "user.", "x"]), containing: "is not a setting", status: 64)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before, "a refused key changes nothing")
        XCTAssertTrue(try succeed(["config", "--help"]).contains("history.limit"), "the help lists the settings")
    }

    /// A whole sync's deadline is whole seconds, from the setting or, before it, the environment (issue 32 §4).
    func testTheSyncDeadlineTakesWholeSeconds() throws {
        for refused in ["0", "1.5", "soon", "86401"] {
            assertOneLineError(
                try authcat.run(["config", "set", "sync.deadline", refused]),
                containing: "sync.deadline takes a whole number of seconds from 1 to 86400", status: 64)
        }
        try succeed(["config", "set", "sync.deadline", "30"])
        XCTAssertEqual(try succeed(["config", "get", "sync.deadline"]), "30\n")
        XCTAssertTrue(try succeed(["config", "--help"]).contains("sync.deadline"), "the help lists the setting")
        let result = try authcat.run(["sync", "now"], environment: ["AUTHCAT_SYNC_DEADLINE": "soon"])
        assertOneLineError(
            result,
            containing:
                "the environment variable AUTHCAT_SYNC_DEADLINE takes a whole number of seconds from 1 to 86400",
            status: 1)
    }

    func testConfigNeverCreatesAVault() throws {
        let home = authcat.root.appendingPathComponent("no-vault").path
        let result = try authcat.run(["--home", home, "config", "set", "user.theme", "dark"], withHome: false)
        assertOneLineError(result, containing: "there is no vault yet", status: 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home), "config created nothing")
    }

    func testHistoryLimitSettingIsTheDefaultPage() throws {
        for index in 0..<4 { try add("user\(index)") }
        try succeed(["config", "set", "history.limit", "2"])
        XCTAssertEqual(try succeed(["history"]).split(separator: "\n").count, 2)
        XCTAssertEqual(try succeed(["history", "--limit", "3"]).split(separator: "\n").count, 3, "--limit wins")
        try succeed(["config", "set", "history.limit", "0"])
        XCTAssertEqual(try succeed(["history"]).split(separator: "\n").count, 5, "0 shows all")
    }

    func testSyncedPreferencesAreRecordedInHistoryAndListedAsJSON() throws {
        try succeed(["config", "set", "--synced", "user.theme", "dark"])
        try succeed(["config", "set", "--synced", "user.accent", "blue"])
        let listed = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try succeed(["config", "list", "--synced", "--json"]).utf8))
                as? [String: String])
        XCTAssertEqual(listed, ["user.accent": "blue", "user.theme": "dark"])
        let one = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(try succeed(["config", "get", "--synced", "--json", "user.theme"]).utf8)) as? [String: Any])
        XCTAssertEqual(one["value"] as? String, "dark")
        XCTAssertEqual(one["synced"] as? Bool, true)
        XCTAssertTrue(try succeed(["history"]).contains("user.theme"))
        try succeed(["config", "unset", "--synced", "user.theme"])
        XCTAssertEqual(try succeed(["config", "list", "--synced"]), "user.accent=blue\n")
    }

    func testALineBreakInAValueCannotForgeAnotherSetting() throws {
        try succeed(["config", "set", "user.motd", "hello\nadmin=true"])
        XCTAssertEqual(try succeed(["config", "list"]), "user.motd=hello\\u{a}admin=true\n")
        XCTAssertEqual(try succeed(["config", "get", "user.motd"]), "hello\nadmin=true\n")
    }

    func testTooLongKeyIsAUsageError() throws {
        let result = try authcat.run(["config", "set", "--synced", String(repeating: "k", count: 65), "v"])
        assertOneLineError(result, containing: "longer than 64 bytes", status: 64)
    }

    func testSyncedPreferencesOverQuotaAreRefusedAndChangeNothing() throws {
        // A single argument is limited to 128 KiB, so the 1 MB quota takes nine of them.
        let value = String(repeating: "x", count: 120_000)
        for index in 0..<8 { try succeed(["config", "set", "--synced", "user.big\(index)", value]) }
        let before = try succeed(["config", "list", "--synced"])
        let result = try authcat.run(["config", "set", "--synced", "user.big8", value])
        assertOneLineError(result, containing: "over quota", status: 1)
        XCTAssertTrue(result.stderr.contains("nothing was changed"), result.stderr)
        XCTAssertEqual(try succeed(["config", "list", "--synced"]), before)
        // Local settings have no quota.
        try succeed(["config", "set", "user.big8", value])
    }
}
