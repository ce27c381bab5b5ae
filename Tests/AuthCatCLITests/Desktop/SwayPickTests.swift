import AuthCatTestSupport
import Foundation
import XCTest

/// `pick` and `code --type` in a real Wayland session: sway on its headless
/// backend, a foot terminal that records what is typed into it, wtype and a
/// sway key binding, all run as a local user (sway will not run as root).
/// What arrives in the focused window is checked. No Wayland menu is driven:
/// wofi and bemenu can take keys before their list is ready, with no sign a
/// test can wait for (a bemenu run chose the first line once in CI), and
/// Debian 12's fuzzel crashes on the headless seat; menus are driven on X11
/// and a terminal.
final class SwayPickTests: AuthCatTestCase {
    private var sway: SwaySession?
    private var vault = ""
    private var typedFile = ""

    private var cli: String { AuthCatRunner.fullProgramURL.path }

    /// sway with `config`, the user's own vault with two accounts, and a
    /// focused foot window recording what is typed into it.
    private func startSession(config: String = "") throws -> SwaySession {
        let user = try LocalUser.ensure("authcat-sway")
        let session = try SwaySession(user: user, config: "output HEADLESS-1 resolution 1024x768\n" + config)
        sway = session
        vault = session.folder + "/vault"
        for (name, issuer, secret) in [("alice", "GitHub", Self.rfcSecret), ("bob", "Google", Self.otherSecret)] {
            let added = try session.run(
                cli, ["--home", vault, "add", name, "--issuer", issuer], stdin: Data((secret + "\n").utf8))
            XCTAssertEqual(added.status, 0, added.stderr)
        }
        typedFile = session.folder + "/typed"
        try session.start(
            "/usr/bin/foot", ["--app-id", "recorder"] + RecordingTerminal.shellCommand(recordingTo: typedFile))
        try RecordingTerminal.waitUntilReady(typedFile)
        try session.waitForFocus(appID: "recorder")
        return session
    }

    override func tearDown() {
        sway?.stop()
        super.tearDown()
    }

    /// The codes of `account` from `start` to now, computed as the session's user.
    private func codesOfTheUser(of account: String, since start: Date) throws -> Set<String> {
        let session = try XCTUnwrap(sway)
        return try Set(
            Self.timeSteps(since: start).map { step in
                try session.run(cli, ["--home", vault, "code", account, "--at", "\(step * 30)"]).stdout
                    .trimmingCharacters(in: .newlines)
            })
    }

    func testAKeyBindingOfSwayTypesThePickedCodeIntoTheFocusedWindow() throws {
        let start = Date()
        // The vault's path is known only once the session made its folder: the binding reads it from a file.
        let binding = "bindsym Mod4+o exec sh -c '\(cli) --home \"$(cat $HOME/vault-path)\" pick google --type'"
        let session = try startSession(config: binding)
        try vault.write(toFile: session.folder + "/vault-path", atomically: true, encoding: .utf8)
        chmod(session.folder + "/vault-path", 0o644)
        try session.press("o", with: "logo")
        let typed = RecordingTerminal.waitFor(count: 6, in: typedFile)
        XCTAssertTrue(try codesOfTheUser(of: "google", since: start).contains(typed), "typed '\(typed)'")
    }

    func testCodeTypeTypesTheCodeThenEnterWithWtype() throws {
        let start = Date()
        let session = try startSession()
        let result = try session.run(cli, ["--home", vault, "code", "github", "--type", "--type-enter"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        let typed = RecordingTerminal.waitFor(count: 7, in: typedFile)
        XCTAssertEqual(typed.last, "\n", "Enter was pressed after the code")
        XCTAssertTrue(
            try codesOfTheUser(of: "github", since: start).contains(String(typed.dropLast())), "typed '\(typed)'")
    }
}
