import AuthCatEssentials
import Foundation
import GRDB

/// The PIN of Yandex and mOTP accounts: sealed like the secret, under the
/// vault key, with associated data `pin:` + the account id, so that neither
/// a sealed PIN moved to another account nor one swapped with a sealed
/// secret opens.
extension Vault {
    /// The PIN of account `id`, decrypted; nil for kinds without one. Needs the vault key.
    public func pin(for id: UUID) throws -> SecretBytes? {
        let sealed = try translatingErrors { db in try Self.reader(db).sealed(id: id) }
        guard let sealed else { throw VaultError.notFound(id.vaultString) }
        return try sealed.pin.map { try openPIN($0, for: id) }
    }

    func sealPIN(_ pin: SecretBytes, for id: UUID) throws -> Data {
        try AEAD.seal(pin, key: key(), associatedData: Self.pinAssociatedData(id))
    }

    func openPIN(_ sealed: Data, for id: UUID) throws -> SecretBytes {
        do {
            return try AEAD.open(sealed, key: key(), associatedData: Self.pinAssociatedData(id))
        } catch CryptoError.authenticationFailed {
            throw VaultError.corrupt(location.databaseURL.path)
        }
    }

    private static func pinAssociatedData(_ id: UUID) -> Data {
        Data(("pin:" + id.vaultString).utf8)
    }
}

extension VaultWriter {
    /// The row for a new account: `draft`'s secret and PIN sealed, after
    /// checking that it has a PIN exactly when its kind needs one.
    func newRecord(_ account: Account, _ draft: AccountDraft) throws -> AccountRecord {
        try draft.checkPIN()
        return AccountRecord(
            account: account, sealedSecret: try vault.seal(draft.secret, for: account.id),
            sealedPIN: try draft.pin.map { try vault.sealPIN($0, for: account.id) })
    }

    /// The PIN of account `id` as stored in this transaction; nil for kinds without one.
    public func pin(for id: UUID) throws -> SecretBytes? {
        try existingRecord(id).sealedPIN.map { try vault.openPIN($0, for: id) }
    }

    /// Applies an edit's PIN to `record`, whose account already has the
    /// edited parameters: seals a new PIN, drops the PIN of a kind without
    /// one. - Returns: whether the stored PIN changed.
    func applyPIN(_ pin: SecretBytes?, to record: inout AccountRecord) throws -> Bool {
        let id = record.account.id
        guard record.account.otp.kind.needsPIN else {
            guard pin == nil else { throw OTPPINError.unexpected(record.account.otp.kind) }
            defer { record.sealedPIN = nil }
            return record.sealedPIN != nil
        }
        guard let pin else {
            guard record.sealedPIN != nil else { throw OTPParameterError.missingPIN(record.account.otp.kind) }
            return false
        }
        try OTPPIN.check(pin)
        if let sealed = record.sealedPIN, try vault.openPIN(sealed, for: id) == pin { return false }
        record.sealedPIN = try vault.sealPIN(pin, for: id)
        return true
    }
}
