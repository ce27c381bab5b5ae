import Foundation

/// What `authcat backup --verify` reports about a backup that is complete and valid.
public struct BackupVerification: Codable, Equatable, Sendable {
    public var valid = true
    public var formatVersion: Int
    public var createdAt: Int64
    public var vaultID: String?
    public var accounts: Int
    public var preferences: Int
    /// Number of history transactions, nil when the backup was made without history.
    public var historyTransactions: Int?
    public var kdfOpsLimit: UInt64
    public var kdfMemLimit: UInt64

    init(archive: AuthCatArchive, header: BackupHeader) {
        formatVersion = Int(header.version)
        createdAt = archive.createdAt
        vaultID = archive.vaultID
        accounts = archive.accounts.count
        preferences = archive.preferences?.count ?? 0
        historyTransactions = archive.history?.count
        kdfOpsLimit = header.kdf.opsLimit
        kdfMemLimit = header.kdf.memLimit
    }
}
