import AuthCatCore
import AuthCatEssentials
import Foundation

/// `authcat code --watch`: the table of current codes, redrawn every second
/// (so at every rollover, which falls on a whole second) and when the
/// window changes size, until q, Ctrl-C, SIGTERM or SIGHUP. The rows come
/// from `LiveCodeScreen`; `LiveTerminal` owns the terminal.
struct LiveCodeView {
    var invocation: Invocation
    var options: VaultOptions
    var query: String?

    func run() throws {
        // Refused before anything else, so a pipe gets one clear line and no passphrase prompt.
        guard invocation.terminal.standardOutputIsTerminal else { throw LiveViewError.notATerminal }
        let vault = try options.openVault(in: invocation)
        // Asked once, before the screen is taken: a wrong passphrase is an
        // error here, not a prompt at every redraw.
        try vault.unlock()
        // A query that matches nothing is a mistake to report, not an empty screen.
        _ = try entries(in: vault, at: invocation.now, requireMatch: true)
        let counterCodes = try counterCodeAskedFor(in: vault)
        let color = LiveCodeScreen.usesColor(environment: invocation.environment)
        let terminal = try LiveTerminal(in: invocation)
        defer { terminal.restore() }
        let title = "authcat code --watch" + (query.map { " \(TerminalText.sanitized($0))" } ?? "") + " · q to quit"
        while true {
            let now = invocation.now
            let size = terminal.size
            let screen = LiveCodeScreen(width: size.width, height: size.height, color: color)
            let entries = try entries(in: vault, at: now, requireMatch: false, counterCodes: counterCodes)
            terminal.draw(screen.lines(entries, title: title))
            // Just after the next whole second, when every countdown moves.
            let next = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + 0.001).rounded(.down) + 1.005)
            switch terminal.wait(until: next) {
            case .key(let key) where key == UInt8(ascii: "q") || key == UInt8(ascii: "Q") || key == 0x03:
                return
            case .stop(let received):
                terminal.restore()
                // Ended by the signal itself, as the shell expects of Ctrl-C or kill.
                signal(received, SIG_DFL)
                raise(received)
                return
            case .key, .resized, .tick:
                continue
            }
        }
    }

    /// The accounts shown, re-read each time so that changes made meanwhile appear.
    /// The code of the one HOTP account QUERY names, if it names one: asked
    /// for by name, as with plain `code`, so one counter value is used, once,
    /// and the code stays on screen (an HOTP code is valid until used).
    private func counterCodeAskedFor(in vault: Vault) throws -> [UUID: OTPCode] {
        guard let query else { return [:] }
        let matched = AccountQuery(query).matches(in: try vault.accounts())
        guard matched.count == 1, let account = matched.first, account.otp.kind == .hotp else { return [:] }
        return [account.id: try vault.generateCode(for: account, at: invocation.now).code]
    }

    private func entries(
        in vault: Vault, at now: Date, requireMatch: Bool,
        counterCodes: [UUID: OTPCode] = [:]
    ) throws -> [LiveCodeEntry] {
        var accounts = try vault.accounts()
        if let query {
            accounts = AccountQuery(query).matches(in: accounts)
            if requireMatch, accounts.isEmpty { throw LiveViewError.noMatch(query) }
        }
        return accounts.map { account in
            if let asked = counterCodes[account.id] {
                return LiveCodeEntry(label: account.label, state: .counterCode(asked.value))
            }
            // Never generated here for HOTP: that would use up a counter value at every redraw.
            let code = account.otp.kind == .hotp ? nil : try? vault.generateCode(for: account, at: now).code
            return LiveCodeEntry(account, code: code, at: now)
        }
    }
}
