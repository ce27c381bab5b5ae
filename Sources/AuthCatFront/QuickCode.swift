import AuthCatEssentials
import FoundationEssentials
import Glibc

/// `authcat code QUERY` for one TOTP or Steam account whose vault key needs
/// no passphrase now (none is set, or `authcat unlock` kept the key), and
/// for a query that names no account or several.
enum QuickCode {
    /// What `authcat code` answers; nil (or an error) to hand over.
    static func reply(query: String, time: Int64?, vault: QuickVault, keyFile: URL) throws -> QuickAnswer.Reply? {
        // authcat-cli refuses times before 1970 before it looks anything up.
        guard (time ?? 0) >= 0, let match = vault.lookUp(query) else { return nil }
        switch match {
        case .none:
            return .failure(VaultError.notFound(query))
        case let .several(labels):
            return .failure(VaultError.ambiguous(query, candidates: labels))
        case let .one(account):
            return try line(account, time: time, vault: vault, keyFile: keyFile).map(QuickAnswer.Reply.output)
        }
    }

    /// The line `authcat code` prints for `account`; nil to hand over.
    private static func line(_ account: Account, time: Int64?, vault: QuickVault, keyFile: URL) throws -> String? {
        // HOTP writes, Yandex and mOTP need the sealed PIN the front does not read: handed over.
        guard account.otp.kind == .totp || account.otp.kind == .steam,
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
