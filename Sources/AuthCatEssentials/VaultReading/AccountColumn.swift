/// The columns of the vault's `account` table, named once for both sides of
/// it: the core's `AccountRecord` writes a row by these names, and
/// `VaultReader` selects and reads an `Account` by them.
///
/// The cases before `identityKey` are what an `Account` is made of, in the
/// order the reader selects them, so that a case's `position` is where its
/// value is in a row the reader reads. The rest are read on their own: the
/// key the identity index looks labels up by, the sealed secret and PIN.
/// The schema itself is the migrations' (`Vault+Schema.swift`, docs/FORMAT.md).
public enum AccountColumn: String, CaseIterable, Sendable {
    case id, issuer, name, kind, algorithm, digits, period, counter, tags, note, createdAt, updatedAt, deletedAt
    case identityKey, sealedSecret, sealedPIN

    /// The columns an `Account` is read from, in order.
    public static let accountFields = allCases.prefix { $0 != .identityKey }

    /// Where the column is in a row of `accountFields`.
    public var position: Int32 {
        Int32(Self.accountFields.firstIndex(of: self) ?? Self.accountFields.endIndex)
    }
}
