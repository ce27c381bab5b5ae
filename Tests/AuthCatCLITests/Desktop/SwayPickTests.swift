import AuthCatTestSupport
import Foundation
import XCTest

/// `pick` and `code --type` in a real Wayland session: sway on its headless
/// backend, a foot terminal that records what is typed into it, wtype and a
/// sway key binding, all run as a local user (sway will not run as root).
/// What arrives in the focused window is checked. bemenu is the Wayland menu
/// driven here, in its filter mode: it starts with the account's name as its
/// filter, so one Return chooses, and a key it was not ready for is dropped,
/// never taken as another choice (typed text can be lost before bemenu is
/// ready, with no sign a test can wait for; wofi filters its list only after
/// it has the focus, and Debian 12's fuzzel crashes on the headless seat).
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

    func testAKeyBindingOfSwayOffersBemenuAndTypesTheChosenCodeIntoTheFocusedWindow() throws {
        let start = Date()
        // Its Wayland protocol log (WAYLAND_DEBUG) says when bemenu has the keyboard.
        let menu = "WAYLAND_DEBUG=1 bemenu -i --filter goo 2>>$HOME/menu.log"
        let binding =
            "bindsym Mod4+p exec sh -c '\(cli) --home \"$(cat $HOME/vault-path)\" pick --type --menu-command \"\(menu)\"'"
        let session = try startSession(config: binding)
        try vault.write(toFile: session.folder + "/vault-path", atomically: true, encoding: .utf8)
        chmod(session.folder + "/vault-path", 0o644)
        try session.press("p", with: "logo")
        try waitForKeyboard(in: session.folder + "/menu.log")
        // Return until bemenu is gone: one that comes before its keyboard is ready is dropped.
        let deadline = Date().addingTimeInterval(60)
        while try session.run("/usr/bin/pgrep", ["-x", "bemenu"]).status == 0, Date() < deadline {
            try session.press(key: "Return")
            usleep(2_000_000)
        }
        let typed = try waitForDigits(6, in: typedFile)
        XCTAssertTrue(try codesOfTheUser(of: "google", since: start).contains(typed), "typed '\(typed)'")
    }

    /// Waits until a Wayland client's protocol log shows it got the keyboard focus.
    private func waitForKeyboard(in log: String) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if text.range(of: #"wl_keyboard@[0-9]+\.enter"#, options: .regularExpression) != nil { return }
            usleep(20_000)
        }
        throw XvfbDisplay.Failure(description: "the menu did not get the keyboard within 60 s")
    }

    /// The first `count` digits that arrive in the recording terminal (a Return that
    /// reached it after the menu closed is not among them).
    private func waitForDigits(_ count: Int, in file: String) throws -> String {
        let deadline = Date().addingTimeInterval(60)
        var digits = ""
        repeat {
            digits = String(RecordingTerminal.received(file).filter(\.isNumber).prefix(count))
            if digits.count == count { return digits }
            usleep(20_000)
        } while Date() < deadline
        return digits
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
