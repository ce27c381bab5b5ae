import Foundation
import XCTest

/// `authcat config`: local settings and synced preferences, with the quota.
final class ConfigCommandTests: AuthCatTestCase {
    func testLocalSettingsSetGetListUnset() throws {
        try succeed(["config", "set", "clipboard", "wl-copy"])
        try succeed(["config", "set", "beta", "two words"])
        XCTAssertEqual(try succeed(["config", "get", "clipboard"]), "wl-copy\n")
        XCTAssertEqual(try succeed(["config", "list"]), "beta=two words\nclipboard=wl-copy\n")
        XCTAssertEqual(try succeed(["config", "list", "--synced"]), "", "local settings are not synced preferences")
        try succeed(["config", "unset", "clipboard"])
        try succeed(["config", "unset", "clipboard"])
        assertOneLineError(try authcat.run(["config", "get", "clipboard"]), containing: "no local setting named \"clipboard\"", status: 1)
        XCTAssertEqual(try succeed(["history", "--json"]).contains("beta"), false, "local settings stay out of history")
    }

    func testSyncedPreferencesAreRecordedInHistoryAndListedAsJSON() throws {
        try succeed(["config", "set", "--synced", "theme", "dark"])
        try succeed(["config", "set", "--synced", "accent", "blue"])
        let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try succeed(["config", "list", "--synced", "--json"]).utf8)) as? [String: String])
        XCTAssertEqual(listed, ["accent": "blue", "theme": "dark"])
        let one = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try succeed(["config", "get", "--synced", "--json", "theme"]).utf8)) as? [String: Any])
        XCTAssertEqual(one["value"] as? String, "dark")
        XCTAssertEqual(one["synced"] as? Bool, true)
        XCTAssertTrue(try succeed(["history"]).contains("theme"))
        try succeed(["config", "unset", "--synced", "theme"])
        XCTAssertEqual(try succeed(["config", "list", "--synced"]), "accent=blue\n")
    }

    func testALineBreakInAValueCannotForgeAnotherSetting() throws {
        try succeed(["config", "set", "motd", "hello\nadmin=true"])
        XCTAssertEqual(try succeed(["config", "list"]), "motd=hello\\u{a}admin=true\n")
        XCTAssertEqual(try succeed(["config", "get", "motd"]), "hello\nadmin=true\n")
    }

    func testTooLongKeyIsAUsageError() throws {
        let result = try authcat.run(["config", "set", "--synced", String(repeating: "k", count: 65), "v"])
        assertOneLineError(result, containing: "longer than 64 bytes", status: 64)
    }

    func testSyncedPreferencesOverQuotaAreRefusedAndChangeNothing() throws {
        // A single argument is limited to 128 KiB, so the 1 MB quota takes nine of them.
        let value = String(repeating: "x", count: 120_000)
        for index in 0..<8 { try succeed(["config", "set", "--synced", "big\(index)", value]) }
        let before = try succeed(["config", "list", "--synced"])
        let result = try authcat.run(["config", "set", "--synced", "big8", value])
        assertOneLineError(result, containing: "over quota", status: 1)
        XCTAssertTrue(result.stderr.contains("nothing was changed"), result.stderr)
        XCTAssertEqual(try succeed(["config", "list", "--synced"]), before)
        // Local settings have no quota.
        try succeed(["config", "set", "big8", value])
    }
}
