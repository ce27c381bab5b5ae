import AuthCatEssentials
import Foundation
import GRDB

/// Followed files and the accounts they brought, changed inside a write.
/// None of it is history: what a followed file changes in accounts is
/// recorded as the accounts' changes, under the author `follow:NAME`.
extension VaultWriter {
    /// Every followed file, by name, as stored in this transaction.
    public func followedFiles() throws -> [FollowedFile] {
        try Vault.followedFiles(in: db)
    }

    /// The followed file called `name`, as stored in this transaction.
    public func followedFile(named name: String) throws -> FollowedFile {
        try Vault.followedFile(named: name, in: db)
    }

    /// Starts following the file at `path` as `name`, keeping `password` sealed.
    /// - Throws: `FollowError.invalidName`, `.nameTaken` or `.pathTaken`.
    public func addFollowedFile(
        name: String, path: String, format: String, password: SecretBytes?
    ) throws -> FollowedFile {
        try FollowedFile.checkName(name)
        let existing = try followedFiles()
        if existing.contains(where: { $0.name == name }) { throw FollowError.nameTaken(name) }
        if let other = existing.first(where: { $0.path == path }) { throw FollowError.pathTaken(path, by: other.name) }
        let file = FollowedFile(
            id: UUID(), name: name, path: path, format: format, hasPassword: password != nil, addedAt: now)
        try db.execute(
            sql: "INSERT INTO followedFile (id, name, path, format, sealedPassword, addedAt) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                file.id.vaultString, name, path, format,
                try password.map { try vault.sealFollowPassword($0, for: file.id) },
                now.unixMilliseconds,
            ])
        return file
    }

    /// Stops following `file`; the accounts it brought stay, no longer followed.
    public func removeFollowedFile(_ file: FollowedFile) throws {
        try db.execute(sql: "DELETE FROM followedFile WHERE id = ?", arguments: [file.id.vaultString])
    }

    /// Keeps `password` (or none) for `file`.
    public func setFollowPassword(_ password: SecretBytes?, of file: FollowedFile) throws {
        try db.execute(
            sql: "UPDATE followedFile SET sealedPassword = ? WHERE id = ?",
            arguments: [try password.map { try vault.sealFollowPassword($0, for: file.id) }, file.id.vaultString])
    }

    /// Records that `file`'s content with SHA-256 `digest` was applied now.
    public func recordFollowApplied(_ file: FollowedFile, digest: Data) throws {
        try Vault.recordFollowLook(file, at: now, applied: digest, problem: nil, in: db)
    }

    // MARK: Entries

    /// The accounts `file` brought, with their entries as last applied.
    public func followedEntries(of file: FollowedFile) throws -> [FollowedEntry] {
        try Row.fetchAll(
            db, sql: "SELECT accountID, sourceID, sealedSnapshot FROM followedEntry WHERE followID = ?",
            arguments: [file.id.vaultString]
        ).map { row in
            guard let account = UUID(uuidString: row["accountID"]) else {
                throw VaultError.storage("a followed entry's account id")
            }
            let snapshot = try vault.openSnapshot(row["sealedSnapshot"], file: file.id, account: account)
            return FollowedEntry(accountID: account, sourceID: row["sourceID"], snapshot: snapshot)
        }
    }

    /// The ids of accounts any followed file brought.
    public func followedAccountIDs() throws -> Set<UUID> {
        Set(try String.fetchAll(db, sql: "SELECT accountID FROM followedEntry").compactMap(UUID.init(uuidString:)))
    }

    /// Records that `file` brought `entry.accountID`, as `entry.snapshot`.
    public func setFollowedEntry(_ entry: FollowedEntry, of file: FollowedFile) throws {
        let sealed = try vault.sealSnapshot(entry.snapshot, file: file.id, account: entry.accountID)
        try db.execute(
            sql: """
                INSERT INTO followedEntry (followID, accountID, sourceID, sealedSnapshot) VALUES (?, ?, ?, ?)
                ON CONFLICT (followID, accountID) DO UPDATE SET sourceID = excluded.sourceID,
                    sealedSnapshot = excluded.sealedSnapshot
                """,
            arguments: [file.id.vaultString, entry.accountID.vaultString, entry.sourceID, sealed])
    }

    /// Forgets that `file` brought `account`.
    public func removeFollowedEntry(_ account: UUID, of file: FollowedFile) throws {
        try db.execute(
            sql: "DELETE FROM followedEntry WHERE followID = ? AND accountID = ?",
            arguments: [file.id.vaultString, account.vaultString])
    }
}
