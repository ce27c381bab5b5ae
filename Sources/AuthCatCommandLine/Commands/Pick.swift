import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

extension AuthCat {
    /// `authcat pick [QUERY]`: an account chosen in a menu, its code copied, typed or printed.
    struct Pick: InvokedCommand, OffersChoices {
        static let configuration = CommandConfiguration(
            commandName: "pick",
            abstract: "Choose an account in a menu and copy, type or print its code.",
            discussion: """
                The accounts (those QUERY matches, as 'authcat code' matches them, or all) \
                are offered in a menu by issuer, name and tags, never with a secret or a \
                code. When QUERY matches one account, no menu is shown. What is typed in the \
                menu without choosing a line is read as a QUERY.

                The menu is the one --menu-command, --menu or the setting pick.menu names, \
                else the first installed of: fzf when run on a terminal, then fuzzel, wofi, \
                bemenu and rofi on Wayland, rofi and dmenu on X11. --menu-command runs any \
                dmenu-compatible command line with sh: it gets the lines on standard input \
                and prints the chosen one.

                The code is made when the choice is made. When fewer than 3 seconds are left \
                in its time step, the next code is waited for (standard error says so), so \
                that a typed or copied code is not already stale.

                --copy (the default) puts the code on the clipboard (wl-copy on Wayland, xclip \
                or xsel on X11) and clears it when it expires, as 'code --copy' does. --type \
                types it into the focused window: wtype on Wayland, xdotool on X11, ydotool \
                where neither fits; --type-enter presses Enter after it. --print writes it on \
                standard output, for scripts.

                Run from a key binding there is no terminal: a locked vault's passphrase is \
                asked for in the menu's password mode (rofi, wofi, bemenu) or else with \
                pinentry. After 'authcat unlock' nothing is asked.

                Examples:
                  authcat pick
                  authcat pick github --type
                  authcat pick --menu rofi --type --type-enter
                  authcat pick --menu-command 'wofi --dmenu -i' --print
                  bindsym $mod+o exec authcat pick --type        (a sway or i3 key binding)
                """)

        static let choices = [ArgumentChoice("--menu", Menu.Kind.self)]

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(
            help: "Offer only the accounts this matches: id, ISSUER:NAME, or part of the issuer or name.",
            completion: AccountCompletion.live)
        var query: String?

        @Flag(help: "What to do with the code (default: --copy).")
        var action: CodeAction = .copy

        @Flag(name: .customLong("type-enter"), help: "With --type: press Enter after the code.")
        var typeEnter = false

        @Flag(help: "With --copy: leave the code on the clipboard.")
        var keep = false

        @Option(help: ArgumentHelp("The menu program to use.", valueName: "menu"))
        var menu: Menu.Kind?

        @Option(
            name: .customLong("menu-command"),
            help: ArgumentHelp(
                "A dmenu-compatible command line to use as the menu, run with sh.", valueName: "command"))
        var menuCommand: String?

        func validate() throws {
            if typeEnter, action != .type { throw ValidationError("--type-enter applies to --type only") }
            if keep, action != .copy { throw ValidationError("--keep applies to --copy only") }
            if menu != nil, menuCommand != nil { throw ValidationError("give --menu or --menu-command, not both") }
        }

        func run(in invocation: Invocation) throws {
            let environment = invocation.environment
            // Missing tools are said before the menu is shown, not after a choice.
            let clipboard = action == .copy ? try Clipboard.find(environment: environment) : nil
            let typist = action == .type ? try TypingTool.find(environment: environment) : nil
            let asker = DesktopPassphrase(environment: environment)
            let access = VaultAccess(home: vaultOptions.home, in: invocation, desktopPassphrase: asker)
            guard let vault = try access.openExistingVault() else {
                throw NoAccountsError(vaultOptions, in: invocation)
            }
            let account = try choose(in: vault, asker: asker, invocation: invocation)
            let generated = try FreshCode.generate(for: account, in: vault, invocation: invocation)
            switch action {
            case .print:
                invocation.output.print(generated.code.value)
            case .copy:
                guard let clipboard else { return }
                CodeCopy(invocation: invocation, keep: keep).copy(
                    generated.code, computedAt: invocation.now, to: clipboard, vault: vault)
            case .type:
                try typist?.type(generated.code.value, enter: typeEnter)
            }
        }

        /// The one account QUERY names, else the one chosen in the menu.
        private func choose(in vault: Vault, asker: DesktopPassphrase, invocation: Invocation) throws -> Account {
            let accounts = try vault.accounts()
            let offered = query.map { AccountQuery($0).matches(in: accounts) } ?? accounts
            if offered.count == 1 { return offered[0] }
            // No match gives the lookup's own error, as 'code' does.
            if let query, offered.isEmpty { return try vault.account(matching: query) }
            if offered.isEmpty { throw NoAccountsError(vaultOptions, in: invocation) }
            let kind = try menu ?? vault.setting(ConfigKey.pickMenu).flatMap(Menu.Kind.init(rawValue:))
            let chosenMenu = try Menu.find(
                command: menuCommand, kind: kind, session: DesktopSession(environment: invocation.environment),
                invocation: invocation)
            asker.use(chosenMenu)
            let lines = PickList(offered)
            guard let answer = try chosenMenu.choose(from: lines.lines, prompt: "authcat") else {
                throw DesktopError.nothingPicked
            }
            return try lines.account(for: answer) ?? vault.account(matching: answer)
        }
    }
}

/// What `pick` does with the code of the account chosen.
enum CodeAction: String, EnumerableFlag {
    case copy, type, print

    static func help(for value: CodeAction) -> ArgumentHelp? {
        switch value {
        case .copy: "Copy the code to the clipboard, and clear it when the code expires."
        case .type: "Type the code into the focused window."
        case .print: "Print the code on standard output."
        }
    }
}

extension Menu.Kind: ExpressibleByArgument {}
