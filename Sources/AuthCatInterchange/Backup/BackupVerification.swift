import AuthCatEssentials
import Foundation

/// What `authcat backup --verify` reports about a backup that is complete and valid.
public struct BackupVerification: Codable, Equatable, Sendable {
    public var valid = true
    public var formatVersion: Int
    /// Whole seconds since 1970, like every time in `--json` output.
    public var createdAt: Int64
    @NullWhenAbsent public var vaultID: String?
    public var accounts: Int
    public var preferences: Int
    /// Number of history transactions, nil when the backup was made without history.
    @NullWhenAbsent public var historyTransactions: Int?
    public var kdfOpsLimit: UInt64
    public var kdfMemLimit: UInt64

    enum CodingKeys: String, CodingKey {
        case valid, accounts, preferences
        case formatVersion = "format_version"
        case createdAt = "created_at"
        case vaultID = "vault_id"
        case historyTransactions = "history_transactions"
        case kdfOpsLimit = "kdf_ops_limit"
        case kdfMemLimit = "kdf_mem_limit"
    }

    init(archive: AuthCatArchive, header: BackupHeader) {
        formatVersion = Int(header.version)
        createdAt = archive.createdAt / 1000
        vaultID = archive.vaultID
        accounts = archive.accounts.count
        preferences = archive.preferences?.count ?? 0
        historyTransactions = archive.history?.count
        kdfOpsLimit = header.kdf.opsLimit
        kdfMemLimit = header.kdf.memLimit
    }
}
