import AuthCatEssentials
import Foundation

/// A dmenu-style menu program: the choices go in on its standard input, one
/// per line, and the chosen line (or what the user typed) comes back on its
/// standard output. `authcat pick` offers accounts in it, and a locked vault
/// asks for its passphrase in its password mode when it has one.
struct Menu: Sendable {
    /// The menus authcat knows by name, each with how it is asked for a
    /// choice and, when it has one, for hidden input.
    enum Kind: String, CaseIterable, Sendable {
        case fzf, rofi, wofi, fuzzel, bemenu, dmenu

        /// The Debian package that installs it, for the error when it is missing.
        var package: String { self == .dmenu ? "suckless-tools" : rawValue }

        /// The order a session tries them in: a terminal's own menu first
        /// when there is a terminal, then the display's.
        static func preferred(in session: DesktopSession, onTerminal: Bool) -> [Kind] {
            let display: [Kind] =
                switch session {
                case .wayland: [.fuzzel, .wofi, .bemenu, .rofi]
                case .x11: [.rofi, .dmenu]
                case .none: []
                }
            return onTerminal ? [.fzf] + display : display
        }

        fileprivate func choiceArguments(prompt: String) -> [String] {
            switch self {
            case .fzf: ["--prompt", prompt + "> ", "--no-multi", "--layout=reverse", "--height=40%"]
            case .rofi: ["-dmenu", "-i", "-p", prompt]
            case .wofi: ["--dmenu", "-i", "-p", prompt]
            case .fuzzel: ["--dmenu", "-p", prompt + "> "]
            case .bemenu: ["-i", "-p", prompt]
            case .dmenu: ["-i", "-p", prompt]
            }
        }

        /// Nil for a menu without a password mode (pinentry asks instead).
        /// fuzzel has one, but Debian 12's fuzzel 1.8.2 crashes in it.
        fileprivate func hiddenArguments(prompt: String) -> [String]? {
            switch self {
            case .rofi: ["-dmenu", "-password", "-p", prompt]
            case .wofi: ["--dmenu", "--password", "-p", prompt]
            case .bemenu: ["-x", "-p", prompt]
            case .fzf, .fuzzel, .dmenu: nil
            }
        }
    }

    /// The program, or `/bin/sh` running the user's `--menu-command`.
    let program: ChildProcess
    let kind: Kind?
    /// Where fzf draws: the terminal's standard error; -1 for a graphical menu.
    let drawsOn: Int32

    /// The menu's name for messages.
    var name: String { kind?.rawValue ?? "the menu command" }

    /// The most of the menu's answer read: one line of a choice.
    static let answerLimit = 64 * 1024

    /// The menu `--menu-command`, `--menu` or the `pick.menu` setting names,
    /// else the first of the session's that is installed.
    /// - Throws: `DesktopError.missingProgram` naming what to install.
    static func find(
        command: String?, kind: Kind?, session: DesktopSession, invocation: Invocation
    ) throws -> Menu {
        let environment = invocation.environment
        let terminal = invocation.terminal
        if let command {
            let shell = ChildProcess(
                executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", command], environment: environment)
            // A terminal menu such as fzf draws on standard error when it is a terminal.
            let drawsOn = terminal.standardErrorIsTerminal ? invocation.standardError.fileDescriptor : -1
            return Menu(program: shell, kind: nil, drawsOn: drawsOn)
        }
        let candidates = kind.map { [$0] } ?? Kind.preferred(in: session, onTerminal: terminal.canAsk)
        for candidate in candidates {
            guard let path = ChildProcess.installed(candidate.rawValue, environment: environment) else { continue }
            let program = ChildProcess(executable: path, arguments: [], environment: environment)
            let drawsOn = candidate == .fzf ? invocation.standardError.fileDescriptor : -1
            return Menu(program: program, kind: candidate, drawsOn: drawsOn)
        }
        if let kind { throw DesktopError.missingProgram(kind.rawValue, package: kind.package) }
        throw DesktopError.noMenu(session: session)
    }

    /// The line chosen, or typed, without its line break; nil when the
    /// user closed the menu without choosing (Escape).
    func choose(from lines: [String], prompt: String) throws -> String? {
        let input = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        let finished = try run(kind.map { $0.choiceArguments(prompt: prompt) } ?? [], input: input)
        let answer =
            String(decoding: finished.output, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if let failure = ChildProcess.failure(finished.status), !Self.isCancel(finished.status) {
            throw DesktopError.failed(name, reason: finished.message.isEmpty ? failure : finished.message)
        }
        return answer.isEmpty || Self.isCancel(finished.status) ? nil : answer
    }

    /// Exit status 1 (dmenu, rofi, wofi, bemenu, fuzzel closed with Escape;
    /// fzf with no match) or 130 (fzf's Escape or Ctrl-C): the user chose nothing.
    private static func isCancel(_ status: Int32) -> Bool {
        status & 0x7F == 0 && [1, 130].contains((status >> 8) & 0xFF)
    }

    /// What the user typed in the menu's password mode, in locked memory;
    /// nil when this menu has no password mode. Closing the menu is a
    /// `PromptInterrupted`, as Ctrl-C at a terminal's prompt is.
    func askHidden(prompt: String, limit: Int) throws -> SecretBytes? {
        guard let arguments = kind?.hiddenArguments(prompt: prompt) else { return nil }
        var finished = try run(arguments, input: [])
        defer { Wipe.bytes(&finished.output) }
        let line = finished.output.prefix { $0 != 0x0A }
        guard ChildProcess.failure(finished.status) == nil, !line.isEmpty else { throw PromptInterrupted() }
        guard line.count <= limit else { throw InputError.tooLong(what: "the passphrase", limit: limit) }
        return SecretBytes(line)
    }

    private func run(_ arguments: [String], input: [UInt8]) throws -> ChildProcess.Finished {
        let menu = ChildProcess(
            executable: program.executable, arguments: program.arguments + arguments,
            environment: program.environment)
        do {
            return try menu.run(input: input, outputLimit: Self.answerLimit, messages: drawsOn)
        } catch let failure as ChildProcess.StartFailure {
            throw DesktopError.failed(menu.name, reason: "could not start it (\(failure.reason))")
        } catch let failure as SpawnParts.PipeFailure {
            throw DesktopError.failed(menu.name, reason: "could not hand it the list (\(failure.reason))")
        }
    }
}
