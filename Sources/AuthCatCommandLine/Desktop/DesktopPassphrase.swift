import AuthCatEssentials
import Synchronization

/// Where a command started from a key binding, with no terminal, asks for a
/// locked vault's passphrase: in the menu's own password mode when it has
/// one, else in pinentry's dialog; never on a terminal that is not there.
///
/// A class: the vault is opened before the menu is known (the setting
/// `pick.menu` is read from it), and the passphrase is asked for only later,
/// when a code is made.
final class DesktopPassphrase: Sendable {
    private let environment: [String: String]
    private let menu = Mutex<Menu?>(nil)

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// Asks in `menu` from now on, when it has a password mode.
    func use(_ menu: Menu) {
        self.menu.withLock { $0 = menu }
    }

    /// The passphrase typed; `triesLeft` is set after a wrong one, and said.
    func ask(triesLeft: Int?) throws -> SecretBytes {
        let retry = triesLeft.map { "wrong passphrase, \($0.counted("try", plural: "tries")) left; " } ?? ""
        let limit = PassphraseSource.limit
        if let menu = menu.withLock({ $0 }),
            let typed = try menu.askHidden(prompt: retry + "authcat passphrase", limit: limit)
        {
            return typed
        }
        guard let pinentry = Pinentry.find(environment: environment) else { throw DesktopError.nowhereToAsk }
        return try pinentry.ask(
            description: retry + "authcat: the vault is locked. Type its passphrase to make a code.",
            prompt: "Passphrase:", limit: limit)
    }
}
