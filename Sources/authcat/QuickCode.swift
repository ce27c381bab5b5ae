import AuthCatEssentials
import FoundationEssentials
import Glibc

/// `authcat code QUERY` for one TOTP or Steam account whose vault key needs no passphrase.
enum QuickCode {
    /// The line `authcat code` prints; nil (or an error) to hand over.
    static func line(query: String, time: Int64?, vault: QuickVault, keyFile: URL) throws -> String? {
        guard let account = vault.account(matching: query), account.otp.kind != .hotp,
              let sealed = vault.sealedSecret(of: account.id)
        else { return nil }
        let file = try VaultKeyFile.read(from: keyFile)
        guard file.protection == .none else { return nil }
        let key = try file.unlock(passphrase: { throw VaultError.passphraseRequired })
        let secret = try AEAD.open(sealed, key: key, associatedData: Data(account.id.vaultString.utf8))
        let now = time.map { Date(timeIntervalSince1970: Double($0)) } ?? Date()
        let code = try OTPGenerator.code(secret: secret, parameters: account.otp, at: now)
        guard isatty(STDOUT_FILENO) == 1 else { return code.value }
        return TextTable.lines([CodeRow.cells(account, code, at: now)])[0]
    }
}
