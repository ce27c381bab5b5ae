import AuthCatTestSupport
import Foundation
import XCTest

/// An interactive bash, zsh or fish in a tmux session, started with a clean
/// configuration that loads one of the committed completion scripts the way
/// the README says to install it. Tests type with `type(_:)` and read the
/// screen; every read waits for what it expects, up to a deadline.
final class TerminalShell {
    enum Kind: String, CaseIterable {
        case bash, zsh, fish
    }

    /// The completion scripts committed in the repository's `completions/`.
    static let committedCompletions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("completions")

    /// What the prompt shows, so that the command line is the screen's last line starting with it.
    static let prompt = "READY> "

    let kind: Kind
    private let socket: URL
    private let userHome: URL

    /// Starts the shell with `authcatFolder` first on PATH and `environment` exported.
    init(_ kind: Kind, userHome: URL, authcatFolder: URL, environment: [String: String], completions: URL) throws {
        self.kind = kind
        self.userHome = userHome
        socket = userHome.appendingPathComponent("tmux.socket")
        let exports = environment.merging(["PATH": "\(authcatFolder.path):/usr/bin:/bin"]) { $1 }
        let command: String
        switch kind {
        case .bash:
            let installed = userHome.appendingPathComponent(".local/share/bash-completion/completions")
            try Self.install(completions.appendingPathComponent("authcat.bash"), into: installed, as: "authcat")
            let rc = userHome.appendingPathComponent(".bashrc")
            try
                (exports.sorted { $0.key < $1.key }.map { "export \($0.key)=\(Self.quoted($0.value))" }
                + ["PS1=\(Self.quoted(Self.prompt))", ". /usr/share/bash-completion/bash_completion"])
                .joined(separator: "\n").write(to: rc, atomically: true, encoding: .utf8)
            command = "bash --noprofile --rcfile \(Self.quoted(rc.path)) -i"
        case .zsh:
            try Self.install(
                completions.appendingPathComponent("_authcat"), into: userHome.appendingPathComponent(".zfunc"),
                as: "_authcat")
            try
                (exports.sorted { $0.key < $1.key }.map { "export \($0.key)=\(Self.quoted($0.value))" }
                + ["PS1=\(Self.quoted(Self.prompt))", "fpath=(~/.zfunc $fpath)", "autoload -Uz compinit && compinit"])
                .joined(separator: "\n").write(
                    to: userHome.appendingPathComponent(".zshrc"), atomically: true, encoding: .utf8)
            command = "zsh -i"
        case .fish:
            let config = userHome.appendingPathComponent(".config/fish")
            try Self.install(
                completions.appendingPathComponent("authcat.fish"),
                into: config.appendingPathComponent("completions"), as: "authcat.fish")
            try
                (exports.sorted { $0.key < $1.key }.map { "set -gx \($0.key) \(Self.quoted($0.value))" }
                + [
                    "set -g fish_greeting", "set -g fish_autosuggestion_enabled 0",
                    "function fish_prompt; printf %s \(Self.quoted(Self.prompt)); end",
                ])
                .joined(separator: "\n").write(
                    to: config.appendingPathComponent("config.fish"), atomically: true, encoding: .utf8)
            command = "fish -i"
        }
        // A bare environment, so that nothing from the test runner's shell leaks in.
        let environmentPrefix =
            "env -i HOME=\(Self.quoted(userHome.path)) TERM=xterm-256color LANG=C.UTF-8 PATH=/usr/bin:/bin "
        try tmux(["new-session", "-d", "-x", "200", "-y", "50", environmentPrefix + command])
        try waitForLine(Self.prompt)
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Sends keys as tmux's `send-keys` names them: text, `Tab`, `C-u`.
    func type(_ keys: String...) throws {
        try tmux(["send-keys"] + keys)
    }

    /// Types `text` and Tab `tabs` times on an empty command line.
    func complete(_ text: String, tabs: Int = 1) throws {
        try type("C-u")
        try waitForLine(Self.prompt)
        try type(text)
        try waitForLine(Self.prompt + text)
        for _ in 0..<tabs { try type("Tab") }
    }

    /// The visible screen.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p"])
    }

    /// The visible screen with its colour and attribute escapes.
    func screenWithEscapes() throws -> String {
        try tmux(["capture-pane", "-p", "-e"])
    }

    /// Whether the pane shows the terminal's alternate screen now.
    func showsAlternateScreen() throws -> Bool {
        try tmux(["display-message", "-p", "#{alternate_on}"]).hasPrefix("1")
    }

    /// The programs running under the pane's shell (what the test typed), by
    /// id, each with its command line: the processes this test started, so
    /// that it can signal them without touching any other on the machine.
    func runningCommands() throws -> [(pid: Int32, commandLine: String)] {
        let shellOutput = try tmux(["display-message", "-p", "#{pane_pid}"])
        guard let shell = Int32(shellOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TerminalShellError.tmuxFailed(["display-message", "#{pane_pid}"])
        }
        return ChildProcesses.descendants(of: shell).compactMap { pid in
            guard let arguments = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let words = arguments.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return (pid, words.joined(separator: " "))
        }
    }

    /// Resizes the pane, as a user dragging the window does.
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The command line: the last line of the screen that starts with the
    /// prompt, trailing spaces dropped (tmux drops them from the screen too).
    func commandLine(in screen: String) -> String? {
        screen.split(separator: "\n").map(Self.trimmed).last { $0.hasPrefix(Self.trimmed(Self.prompt)) }
    }

    private static func trimmed<S: StringProtocol>(_ text: S) -> String {
        String(text.reversed().drop { $0 == " " }.reversed())
    }

    /// Waits until the command line reads `expected` (trailing spaces ignored).
    func waitForLine(
        _ expected: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let wanted = Self.trimmed(expected)
        try waitFor("command line '\(wanted)'", timeout: timeout, file: file, line: line) { [self] screen in
            commandLine(in: screen) == wanted
        }
    }

    /// Waits until the screen satisfies `condition`, failing with the screen after `timeout`.
    func waitFor(
        _ what: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
        _ condition: (String) -> Bool
    ) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return }
            usleep(20_000)
        }
        XCTFail("\(kind): no \(what) within \(timeout) s; the screen:\n\(last)", file: file, line: line)
        throw TerminalShellError.timedOut(what)
    }

    /// Runs tmux and waits for it. Not with Foundation's `Process`: its wait
    /// does not end when the client that starts the server exits (the server
    /// keeps what the client inherited), so this spawns and reaps it directly.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let output = userHome.appendingPathComponent("tmux.out")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let words: [String] = ["/usr/bin/tmux", "-S", socket.path, "-f", "/dev/null"] + arguments
        let variables: [String] = ["HOME=\(userHome.path)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
        let argv = words.map { strdup($0) } + [nil]
        let environment = variables.map { strdup($0) } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environment) == 0 else {
            throw TerminalShellError.tmuxFailed(arguments)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // Exited normally with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { throw TerminalShellError.tmuxFailed(arguments) }
        return try String(contentsOf: output, encoding: .utf8)
    }

    private static func install(_ script: URL, into folder: URL, as name: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: script, to: folder.appendingPathComponent(name))
    }

    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

enum TerminalShellError: Error {
    case timedOut(String)
    case tmuxFailed([String])
}
