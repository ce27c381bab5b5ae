import AuthCatTestSupport
import Foundation
import XCTest

/// Questions on a real terminal (bash in tmux, Ctrl-C typed as the user
/// types it): Ctrl-C at any prompt ends the command with status 130, echo
/// back on and nothing written or sent, also inside `sync watch`, which
/// catches SIGINT for itself; and the watch asks for a WebDAV password once.
/// One lighttpd server for the class, whose access log shows what was sent.
final class PromptInterruptTests: SyncTestCase {
    private static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("authcat-cli-prompts-\(UUID().uuidString)").path
    // Started from the synchronous class setUp (see MotoServer.ForTestClass).
    nonisolated(unsafe) private static var lighttpd: WebDAVServer?
    nonisolated(unsafe) private static var startError: Error?

    private var shell: TerminalShell?

    override class func setUp() {
        super.setUp()
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            lighttpd = try WebDAVServer(.lighttpd, folder: folder)
        } catch {
            startError = error
        }
    }

    override class func tearDown() {
        lighttpd?.stop()
        try? FileManager.default.removeItem(atPath: folder)
        super.tearDown()
    }

    override func tearDown() {
        shell = nil
        super.tearDown()
    }

    private func server() throws -> WebDAVServer {
        if let error = Self.startError { throw error }
        return try XCTUnwrap(Self.lighttpd)
    }

    /// bash on a terminal, with `device`'s environment and vault (no WebDAV password file, no netrc).
    private func shell(for device: AuthCatRunner) throws -> TerminalShell {
        let userHome = device.root.appendingPathComponent("shell-home", isDirectory: true)
        try FileManager.default.createDirectory(at: userHome, withIntermediateDirectories: true)
        var environment = device.environment.merging(["AUTHCAT_HOME": device.home.path]) { $1 }
        environment["AUTHCAT_WEBDAV_PASSWORD_FILE"] = nil
        let started = try TerminalShell(
            .bash, userHome: userHome, authcatFolder: AuthCatRunner.executableURL.deletingLastPathComponent(),
            environment: environment, completions: TerminalShell.committedCompletions)
        shell = started
        return started
    }

    /// Types `command`, answers `answers` (a prompt to wait for, then what to
    /// type), waits for `prompt` on the screen, then presses Ctrl-C. The screen
    /// has no trailing spaces, so no prompt to wait for ends in one.
    private func interrupt(
        _ command: String, answering answers: [(prompt: String, typed: String)] = [], at prompt: String,
        in shell: TerminalShell
    ) throws {
        try shell.type(command, "Enter")
        for answer in answers {
            try shell.waitFor("the prompt '\(answer.prompt)'", timeout: 60) { $0.contains(answer.prompt) }
            try shell.type(answer.typed, "Enter")
        }
        try shell.waitFor("the prompt '\(prompt)'", timeout: 60) { $0.contains(prompt) }
        try shell.type("C-c")
        try shell.waitForLine(TerminalShell.prompt, timeout: 60)
    }

    /// The status of the last command and whether echo is on, as the shell
    /// sees them. What is waited for is computed by the shell, so that the
    /// typed command line never matches it.
    private func assertEndedWith130AndEchoIsOn(
        _ shell: TerminalShell, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try shell.type(
            "echo \"status:$?\"; stty -a | tr ' ' '\\n' | grep -x -e echo -e -echo | sed 's/^/tty:/'; echo \"end:$((6*7))\"",
            "Enter")
        var screen = ""
        try shell.waitFor("the status", timeout: 30, file: file, line: line) { shown in
            screen = shown
            return shown.contains("end:42")
        }
        XCTAssertTrue(
            screen.contains("status:130\n"), "Ctrl-C ends with status 130:\n\(screen)", file: file, line: line)
        XCTAssertTrue(screen.contains("tty:echo\n"), "echo is on again:\n\(screen)", file: file, line: line)
    }

    func testCtrlCAtANewPassphrasePromptEndsTheCommandAndChangesNothing() throws {
        let device = try makeDevice()
        try add(device, "alice")
        let before = try VaultSnapshot.take(device)
        let shell = try shell(for: device)

        try interrupt("authcat passphrase set", at: "new passphrase (at least", in: shell)
        try assertEndedWith130AndEchoIsOn(shell)
        XCTAssertEqual(try VaultSnapshot.take(device), before, "the vault is as it was")
    }

    func testCtrlCAtAConfirmationEndsTheCommandAndKeepsTheAccount() throws {
        let device = try makeDevice()
        try add(device, "alice")
        let before = try VaultSnapshot.take(device)
        let shell = try shell(for: device)

        try interrupt("authcat remove alice", at: "remove Example:alice? [y/N]", in: shell)
        try assertEndedWith130AndEchoIsOn(shell)
        XCTAssertEqual(try VaultSnapshot.take(device), before, "the account is still there")
    }

    func testCtrlCAtTheSyncPassphrasePromptOfSyncEnableSetsNothingUp() throws {
        let device = try makeDevice()
        device.environment["AUTHCAT_SYNC_PASSPHRASE_FILE"] = nil
        try add(device, "alice")
        let shell = try shell(for: device)

        try interrupt(
            "authcat sync enable --remote \(remoteURL)", answering: [("no authcat vault was found at", "y")],
            at: "new sync passphrase (at least", in: shell)
        try assertEndedWith130AndEchoIsOn(shell)
        XCTAssertEqual(remoteFiles(), [], "nothing was written to the remote")
        XCTAssertEqual(try status(device, offline: true).json["enabled"] as? Bool, false)
    }

    /// Ctrl-C in the middle of a join (here at the vault's passphrase, which
    /// the setup asks for once it has begun) leaves sync off, and `sync
    /// status` says so, with advice that works: join again with `sync enable`,
    /// never a `sync now` that would answer that sync is off (issue 33 §7).
    func testCtrlCDuringAJoinLeavesAdviceThatWorks() throws {
        let first = try makeDevice()
        try enable(first)
        let device = try makeDevice()
        try add(device, "alice")
        let passphrase = scratch.appendingPathComponent("vault-passphrase")
        try write("hunter22\n", to: passphrase)
        try succeed(device, ["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": passphrase.path])
        let shell = try shell(for: device)

        try interrupt("authcat sync enable --remote \(remoteURL)", at: "authcat passphrase:", in: shell)
        try assertEndedWith130AndEchoIsOn(shell)
        let shown = try device.run(["sync", "status", "--offline"]).stdout
        XCTAssertTrue(shown.contains("sync is off: its setup was interrupted before it finished"), shown)
        XCTAssertFalse(shown.contains("sync now"), "advice that would answer that sync is off: \(shown)")
        XCTAssertTrue(shown.contains("authcat sync enable --remote"), shown)

        let joined = try device.run(
            ["sync", "enable", "--remote", remoteURL], environment: ["AUTHCAT_PASSPHRASE_FILE": passphrase.path])
        XCTAssertEqual(joined.status, 0, joined.stderr)
        XCTAssertTrue(joined.stdout.contains("joined the remote vault"), joined.stdout)
        XCTAssertEqual(try status(device, offline: true).json["summary"] as? String, "succeeded")
    }

    /// The watch ignores SIGINT and counts it itself; at its password prompt Ctrl-C still ends it.
    func testCtrlCAtTheWebDAVPasswordPromptOfSyncWatchStopsItAndSendsNothing() throws {
        let server = try server()
        let device = try makeDevice()
        try add(device, "alice")
        let url = "dav://\(server.user)@127.0.0.1:\(server.port)/t-\(UUID().uuidString.prefix(8).lowercased())/authcat"
        let passwordFile = scratch.appendingPathComponent("webdav-password")
        try write(server.password + "\n", to: passwordFile)
        try enable(device, remote: url, environment: ["AUTHCAT_WEBDAV_PASSWORD_FILE": passwordFile.path])
        let remoteBefore = try remoteObjects(server)
        let sentBefore = try server.requests().filter { $0.hasPrefix(server.user + " ") }.count
        let shell = try shell(for: device)

        try interrupt(
            "authcat sync watch --interval 1", at: "WebDAV password for \(server.user) at 127.0.0.1:", in: shell)
        try assertEndedWith130AndEchoIsOn(shell)
        let sentAfter = try server.requests().filter { $0.hasPrefix(server.user + " ") }.count
        XCTAssertEqual(sentAfter, sentBefore, "no request with the password was made")
        XCTAssertEqual(try remoteObjects(server), remoteBefore, "the remote is unchanged")
    }

    func testSyncWatchAsksForTheWebDAVPasswordOnce() throws {
        let server = try server()
        let device = try makeDevice()
        try add(device, "alice")
        let url = "dav://\(server.user)@127.0.0.1:\(server.port)/t-\(UUID().uuidString.prefix(8).lowercased())/authcat"
        let passwordFile = scratch.appendingPathComponent("webdav-password")
        try write(server.password + "\n", to: passwordFile)
        try enable(device, remote: url, environment: ["AUTHCAT_WEBDAV_PASSWORD_FILE": passwordFile.path])
        let shell = try shell(for: device)
        let prompt = "WebDAV password for \(server.user) at 127.0.0.1:"

        try shell.type("authcat sync watch --interval 1", "Enter")
        try shell.waitFor("the password prompt", timeout: 60) { $0.contains(prompt) }
        try shell.type(server.password, "Enter")
        let watch = try XCTUnwrap(
            shell.runningCommands().first { $0.commandLine.contains("sync watch") }, "the watch runs")
        let events = device.home.appendingPathComponent("sync-events.log")
        let imported = "{\"kind\":\"succeeded\",\"phase\":\"import\",\"processID\":\(watch.pid)"
        XCTAssertTrue(
            eventually(within: 120) {
                ((try? String(contentsOf: events, encoding: .utf8)) ?? "").components(separatedBy: imported).count > 3
            }, "the watch synced three times: \((try? shell.screen()) ?? "")")

        // Past the prompt, Ctrl-C is the watch's again: it stops cleanly, and the shell's prompt follows its `^C`.
        try shell.type("C-c")
        try shell.waitFor("the shell again", timeout: 60) { shown in
            shown.split(separator: "\n").last?.hasSuffix(TerminalShell.prompt.trimmingCharacters(in: .whitespaces))
                ?? false
        }
        let screen = try shell.screen()
        XCTAssertEqual(screen.components(separatedBy: prompt).count - 1, 1, "asked once:\n\(screen)")
        XCTAssertFalse(screen.contains(server.password), "the password is never shown")
        XCTAssertFalse(
            try String(contentsOf: events, encoding: .utf8).contains(server.password), "nor logged")
    }

    /// The files under the server's document root, with their bytes.
    private func remoteObjects(_ server: WebDAVServer) throws -> [String: Data] {
        let root = server.documentRoot
        var objects: [String: Data] = [:]
        for path in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] {
            if let data = FileManager.default.contents(atPath: root + "/" + path) { objects[path] = data }
        }
        return objects
    }
}
