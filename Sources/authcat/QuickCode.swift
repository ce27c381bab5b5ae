import AuthCatEssentials
import FoundationEssentials
import Glibc

/// `authcat code QUERY` for one TOTP or Steam account whose vault key needs
/// no passphrase now: none is set, or `authcat unlock` kept the key.
enum QuickCode {
    /// The line `authcat code` prints; nil (or an error) to hand over.
    static func line(query: String, time: Int64?, vault: QuickVault, keyFile: URL) throws -> String? {
        // HOTP writes, Yandex and mOTP need the sealed PIN the front does not
        // read, and authcat-cli refuses times before 1970: all handed over.
        guard (time ?? 0) >= 0, let account = vault.account(matching: query),
              account.otp.kind == .totp || account.otp.kind == .steam,
              let sealed = vault.sealedSecret(of: account.id)
        else { return nil }
        guard let key = try VaultKeyFile.read(from: keyFile).keyWithoutPrompt() else { return nil }
        let secret = try AEAD.open(sealed, key: key, associatedData: Data(account.id.vaultString.utf8))
        let now = time.map { Date(timeIntervalSince1970: Double($0)) } ?? Date()
        let code = try OTPGenerator.code(secret: secret, parameters: account.otp, at: now)
        guard isatty(STDOUT_FILENO) == 1 else { return code.value }
        return TextTable.lines([CodeRow.cells(account, code, at: now)])[0]
    }
}
