import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

/// `pick` and `code --type` with any dmenu-compatible menu (`--menu-command`)
/// and what goes wrong: what the menu is shown, what a typed query picks,
/// a menu closed, a missing tool. The real displays are X11PickTests' and
/// SwayPickTests'.
final class PickTests: AuthCatTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try add("alice", issuer: "GitHub", secret: Self.rfcSecret, ["--tag", "Work", "--tag", "dev"])
        try add("bob", issuer: "Google", secret: Self.otherSecret)
        try add("counter", secret: Self.otherSecret, ["--type", "hotp"])
    }

    private func menuLog() -> String { authcat.root.appendingPathComponent("menu-input").path }

    func testTheMenuShowsIssuerNameAndTagsButNoSecretOrCodeAndItsChoiceIsPrinted() throws {
        // The menu keeps what it was shown and chooses the line about Google.
        let menu = "tee '\(menuLog())' | grep Google"
        let vaultBefore = try VaultSnapshot.take(authcat)
        let result = try authcat.run(["pick", "--menu-command", menu, "--print"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let shown = try String(contentsOfFile: menuLog(), encoding: .utf8)
        // In the order of `list`: by issuer (none first), then name.
        XCTAssertEqual(shown, "counter\nGitHub: alice  (Work, dev)\nGoogle: bob\n")
        let code = result.stdout.trimmingCharacters(in: .newlines)
        let expected = try succeed(["code", "google"]).trimmingCharacters(in: .newlines)
        XCTAssertEqual(code, expected)
        for secret in [Self.rfcSecret, Self.otherSecret, code] {
            XCTAssertFalse(shown.contains(secret), "the menu was shown a secret or a code")
        }
        XCTAssertEqual(try VaultSnapshot.take(authcat), vaultBefore, "a TOTP pick changes nothing")
    }

    func testWhatIsTypedInTheMenuIsReadAsAQuery() throws {
        let result = try authcat.run(["pick", "--menu-command", "cat > /dev/null; echo githu", "--print"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, try succeed(["code", "github"]))
    }

    func testAQueryThatMatchesSomeOffersOnlyThose() throws {
        let menu = "tee '\(menuLog())' | head -n 1"
        let result = try authcat.run(["pick", "o", "--menu-command", menu, "--print"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOfFile: menuLog(), encoding: .utf8), "counter\nGoogle: bob\n")
    }

    func testAMenuClosedWithoutAChoiceDoesNothing() throws {
        let before = try VaultSnapshot.take(authcat)
        let result = try authcat.run(["pick", "--menu-command", "cat > /dev/null; exit 1", "--print"])
        assertOneLineError(
            result, containing: "no account was picked; nothing was done", status: 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(try VaultSnapshot.take(authcat), before, "no HOTP counter value used")
    }

    func testAMenuThatFailsIsReportedWithItsOwnWords() throws {
        let result = try authcat.run(["pick", "--menu-command", "cat > /dev/null; echo 'no display here' >&2; exit 3"])
        assertOneLineError(result, containing: "the menu command failed: no display here", status: 1)
    }

    func testAQueryMatchingNothingGivesCodesError() throws {
        let pick = try authcat.run(["pick", "nothing-like-it", "--print"])
        let code = try authcat.run(["code", "nothing-like-it"])
        XCTAssertEqual(pick.status, 1)
        XCTAssertEqual(pick.stderr, code.stderr)
    }

    func testAMissingTypingToolOrMenuNamesThePackageAndChangesNothing() throws {
        let empty = authcat.root.appendingPathComponent("empty-path", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let before = try VaultSnapshot.take(authcat)
        let wayland = ["WAYLAND_DISPLAY": "wayland-1", "PATH": empty.path]
        assertOneLineError(
            try authcat.run(["code", "counter", "--type"], environment: wayland),
            containing: "wtype is not installed; install the package wtype", status: 1)
        assertOneLineError(
            try authcat.run(["pick", "--type"], environment: ["DISPLAY": ":9", "PATH": empty.path]),
            containing: "xdotool is not installed; install the package xdotool", status: 1)
        assertOneLineError(
            try authcat.run(["pick", "--print", "--menu", "fuzzel"], environment: wayland),
            containing: "fuzzel is not installed; install the package fuzzel", status: 1)
        assertOneLineError(
            try authcat.run(["pick", "--print"], environment: ["DISPLAY": ":9", "PATH": empty.path]),
            containing:
                "no menu program found; install rofi or suckless-tools (dmenu), or name one with --menu-command",
            status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before, "no HOTP counter value used")
    }

    func testAnUnlockedVaultIsPickedFromWithoutAnyPrompt() throws {
        let file = authcat.root.appendingPathComponent("passphrase")
        try Data("correct horse\n".utf8).write(to: file)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": file.path])
        // The keyring outlives the test's folder: never leave a key in it.
        defer { _ = try? authcat.run(["lock"]) }
        // Locked, with no terminal, no passphrase file and no pinentry on PATH: nowhere to ask.
        let noDialog = authcat.root.appendingPathComponent("no-dialog", isDirectory: true)
        try FileManager.default.createDirectory(at: noDialog, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: noDialog.appendingPathComponent("sh").path, withDestinationPath: "/bin/sh")
        let menu = "cat > /dev/null; echo github"
        assertOneLineError(
            try authcat.run(["pick", "--menu-command", menu, "--print"], environment: ["PATH": noDialog.path]),
            containing: "the vault is locked and there is no terminal to ask for its passphrase on", status: 1)
        try succeed(["unlock", "--for", "10m"], environment: ["AUTHCAT_PASSPHRASE_FILE": file.path])
        let picked = try authcat.run(["pick", "--menu-command", menu, "--print"], environment: ["PATH": noDialog.path])
        XCTAssertEqual(picked.status, 0, picked.stderr)
        XCTAssertEqual(picked.stdout, try succeed(["code", "github"]))
    }

    func testACodeWithUnderThreeSecondsLeftIsReplacedByTheNextAndTheWaitIsSaid() throws {
        // One second before a 30-second step ends: the next step's code comes, after a wait.
        let late = try authcat.run(
            ["pick", "github", "--print"], clock: ManualClock(Date(timeIntervalSince1970: 1_800_000_029)))
        XCTAssertEqual(late.status, 0, late.stderr)
        XCTAssertEqual(late.stderr, "authcat: waiting 1 second for the next code\n")
        XCTAssertEqual(late.stdout, try succeed(["code", "github", "--at", "1800000030"]))
        // Five seconds into the step: no wait, the current code.
        let early = try authcat.run(
            ["pick", "github", "--print"], clock: ManualClock(Date(timeIntervalSince1970: 1_800_000_005)))
        XCTAssertEqual(early.stderr, "")
        XCTAssertEqual(early.stdout, try succeed(["code", "github", "--at", "1800000005"]))
    }

    func testATypingToolThatFailsIsReportedInItsOwnWords() throws {
        let tools = authcat.root.appendingPathComponent("failing-tools", isDirectory: true)
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let wtype = tools.appendingPathComponent("wtype")
        try "#!/bin/sh\necho 'Compositor does not support the virtual keyboard protocol' >&2\nexit 1\n"
            .write(to: wtype, atomically: true, encoding: .utf8)
        chmod(wtype.path, 0o755)
        let result = try authcat.run(
            ["code", "github", "--type"], environment: ["WAYLAND_DISPLAY": "wayland-1", "PATH": tools.path],
            clock: ManualClock(Date(timeIntervalSince1970: 1_800_000_005)))
        assertOneLineError(
            result, containing: "wtype failed: Compositor does not support the virtual keyboard protocol", status: 1)
    }

    func testBadCombinationsAreUsageErrors() throws {
        for arguments in [
            ["code", "github", "--type", "--copy"], ["code", "--type"], ["code", "github", "--type-enter"],
            ["pick", "--print", "--type-enter"], ["pick", "--type", "--keep"],
            ["pick", "--menu", "rofi", "--menu-command", "cat"], ["pick", "--menu", "nosuchmenu"],
        ] {
            XCTAssertEqual(try authcat.run(arguments).status, 64, arguments.joined(separator: " "))
        }
    }

    func testTheMenuSettingIsCheckedAndUsed() throws {
        assertOneLineError(try authcat.run(["config", "set", "pick.menu", "nosuchmenu"]), containing: "fzf, rofi")
        try succeed(["config", "set", "pick.menu", "dmenu"])
        // The setting names dmenu, which is not on this PATH: its error says so.
        let empty = authcat.root.appendingPathComponent("empty-path", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        assertOneLineError(
            try authcat.run(["pick", "--print"], environment: ["DISPLAY": ":9", "PATH": empty.path]),
            containing: "dmenu is not installed; install the package suckless-tools", status: 1)
    }
}
