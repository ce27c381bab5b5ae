/// The columns of the vault's `account` table, named once for both sides of
/// it: the core's `AccountRecord` writes a row by these names, and
/// `VaultReader` selects and reads an `Account` by them.
///
/// The cases up to `deletedAt` are what an `Account` is made of, in the order
/// the reader selects them, so that a case's `rawValue` is where its value is
/// in a row the reader reads. The rest are read on their own: the key the
/// identity index looks labels up by, the sealed secret and PIN. The schema
/// itself is the migrations' (`Vault+Schema.swift`, docs/FORMAT.md).
///
/// Positions are raw values, and names a switch, so that the quick front
/// reads a row without making an array or looking up a type at run time.
public enum AccountColumn: Int32, CaseIterable, Sendable {
    case id, issuer, name, kind, algorithm, digits, period, counter, tags, note, createdAt, updatedAt, deletedAt
    case identityKey, sealedSecret, sealedPIN

    /// The column's name in the schema.
    public var name: String {
        switch self {
        case .id: "id"
        case .issuer: "issuer"
        case .name: "name"
        case .kind: "kind"
        case .algorithm: "algorithm"
        case .digits: "digits"
        case .period: "period"
        case .counter: "counter"
        case .tags: "tags"
        case .note: "note"
        case .createdAt: "createdAt"
        case .updatedAt: "updatedAt"
        case .deletedAt: "deletedAt"
        case .identityKey: "identityKey"
        case .sealedSecret: "sealedSecret"
        case .sealedPIN: "sealedPIN"
        }
    }

    /// Whether an `Account` is read from it: one of the columns the reader selects, in `rawValue` order.
    public var isAccountField: Bool { rawValue <= Self.deletedAt.rawValue }
}
