import AuthCatEssentials
import FoundationEssentials
import Glibc

/// Prints the code a `CodeShortcut` asks for, when that is the everyday case:
/// one TOTP or Steam account, found at once in a current vault whose key
/// needs no passphrase and whose folder needs no warning.
///
/// Everything else returns false before anything is printed or written, and
/// `authcat-cli` then runs the same command line from the start: HOTP (which
/// writes the vault and may start a background sync), a passphrase prompt,
/// several or no matches, any error. So the front has no messages of its
/// own and cannot behave differently from `authcat code`.
enum QuickCode {
    /// True when the code was printed.
    static func print(_ shortcut: CodeShortcut) -> Bool {
        guard let line = try? line(for: shortcut) else { return false }
        Swift.print(line)
        return true
    }

    /// The line to print; nil or an error when `authcat-cli` should run instead.
    private static func line(for shortcut: CodeShortcut) throws -> String? {
        let location = try VaultLocation.resolve(override: shortcut.home, environment: environment())
        guard try location.checkPermissions().isEmpty, let vault = QuickVault(location),
              let account = vault.account(matching: shortcut.query), account.otp.kind != .hotp,
              let sealed = vault.sealedSecret(of: account.id)
        else { return nil }
        let keyFile = try VaultKeyFile.read(from: location.keyFileURL)
        guard keyFile.protection == .none else { return nil }
        let key = try keyFile.unlock(passphrase: { throw VaultError.passphraseRequired })
        let secret = try AEAD.open(sealed, key: key, associatedData: Data(account.id.vaultString.utf8))
        let now = shortcut.time.map { Date(timeIntervalSince1970: Double($0)) } ?? Date()
        let code = try OTPGenerator.code(secret: secret, parameters: account.otp, at: now)
        guard isatty(STDOUT_FILENO) == 1 else { return code.value }
        return TextTable.lines([CodeRow.cells(account, code, at: now)])[0]
    }

    /// The variables the vault location depends on; copying all of
    /// `ProcessInfo.environment` would cost more than computing the code.
    private static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for name in VaultLocation.environmentVariables {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}
