import AuthCatEssentials
import FoundationEssentials
import Glibc

/// `authcat code QUERY` for one TOTP or Steam account whose vault key needs
/// no passphrase now (none is set, or `authcat unlock` kept the key), and
/// for a query that names no account or several.
enum QuickCode {
    /// What `authcat code` answers; nil (or an error) to hand over.
    /// - Parameter keyFile: the path of the vault's key file.
    static func reply(query: String, time: Int64?, vault: QuickVault, keyFile: String) throws -> QuickAnswer.Reply? {
        // authcat-cli refuses times before 1970 before it looks anything up.
        guard (time ?? 0) >= 0 else { return nil }
        let account: Account
        do {
            account = try vault.reader.account(matching: query)
        } catch let error as VaultError {
            switch error {
            case .notFound, .ambiguous: return .failure(error)
            default: return nil
            }
        }
        return try line(account, time: time, vault: vault, keyFile: keyFile).map(QuickAnswer.Reply.output)
    }

    /// The line `authcat code` prints for `account`; nil to hand over.
    private static func line(_ account: Account, time: Int64?, vault: QuickVault, keyFile: String) throws -> String? {
        // HOTP writes, Yandex and mOTP need the sealed PIN the front does not open: handed over.
        guard account.otp.kind == .totp || account.otp.kind == .steam,
            let sealed = try vault.reader.sealed(id: account.id)?.secret
        else { return nil }
        // A key is trusted only once it opens the vault's key check, as in
        // authcat-cli; one that does not (a key file of another vault, a
        // stale key in the keyring) is authcat-cli's to report or replace.
        // A wrong key could not open the secret anyway; the check is what
        // keeps the front from printing a code where authcat-cli refuses: a
        // check that fails a key which opens the secret (a damaged vault row).
        guard let key = try VaultKeyFile.read(atPath: keyFile).keyWithoutPrompt(), vault.keyCheck.accepts(key) else {
            return nil
        }
        let secret = try AEAD.open(sealed, key: key, associatedData: Data(utf8: account.id.vaultString))
        let now = time.map { Date(timeIntervalSince1970: Double($0)) } ?? Date()
        let code = try OTPGenerator.code(secret: secret, parameters: account.otp, at: now)
        guard isatty(STDOUT_FILENO) == 1 else { return code.value }
        let row = CodeRow.cells(account, code, at: now)
        // The width (one ioctl) is asked only for a label longer than the shortest cut keeps.
        let longLabel = row[CodeRow.labelColumn].utf8.count > TextTable.minimumCutWidth
        let width = longLabel ? TerminalWidth.of(STDOUT_FILENO) : nil
        return TextTable.lines([row], width: width, cut: CodeRow.labelColumn)[0]
    }
}
