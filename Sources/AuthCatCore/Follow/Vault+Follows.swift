import AuthCatEssentials
import Foundation
import GRDB

/// The files the vault follows, read outside a write.
extension Vault {
    /// Every followed file, by name.
    public func followedFiles() throws -> [FollowedFile] {
        try translatingErrors { db in try Self.followedFiles(in: db) }
    }

    /// The followed file called `name`.
    /// - Throws: `FollowError.notFound`.
    public func followedFile(named name: String) throws -> FollowedFile {
        try translatingErrors { db in try Self.followedFile(named: name, in: db) }
    }

    /// The kept password of `file`, if any; needs the vault key.
    public func followPassword(of file: FollowedFile) throws -> SecretBytes? {
        let sealed = try translatingErrors { db in
            try Data.fetchOne(
                db, sql: "SELECT sealedPassword FROM followedFile WHERE id = ?", arguments: [file.id.vaultString])
        }
        return try sealed.map { try openFollowPassword($0, for: file.id) }
    }

    /// Records a look at `file` that applied nothing: its content was the one
    /// applied last, or `problem` stopped it. It needs no vault key (nothing
    /// sealed is written), so an unchanged file costs a locked vault no passphrase.
    public func recordFollowLook(_ file: FollowedFile, problem: String?) throws {
        let now = clock.now()
        try Self.translatingErrors(location) {
            try database.write { db in
                try Self.recordFollowLook(file, at: now, applied: nil, problem: problem, in: db)
            }
        }
    }

    /// The look's time and problem; with `applied`, the digest of the content applied, and its time as the change's.
    static func recordFollowLook(
        _ file: FollowedFile, at date: Date, applied digest: Data?, problem: String?, in db: Database
    ) throws {
        try db.execute(
            sql: """
                UPDATE followedFile SET checkedAt = ?, problem = ?, digest = COALESCE(?, digest),
                    changedAt = CASE WHEN ? IS NULL THEN changedAt ELSE ? END
                WHERE id = ?
                """,
            arguments: [
                date.unixMilliseconds, problem, digest, digest, date.unixMilliseconds, file.id.vaultString,
            ])
    }

    static func followedFiles(in db: Database) throws -> [FollowedFile] {
        try Row.fetchAll(db, sql: "SELECT * FROM followedFile ORDER BY name").map(followedFile(from:))
    }

    static func followedFile(named name: String, in db: Database) throws -> FollowedFile {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM followedFile WHERE name = ?", arguments: [name])
        else { throw FollowError.notFound(name) }
        return try followedFile(from: row)
    }

    private static func followedFile(from row: Row) throws -> FollowedFile {
        guard let id = UUID(uuidString: row["id"]) else { throw VaultError.storage("a followed file's id") }
        let password: Data? = row["sealedPassword"]
        return FollowedFile(
            id: id, name: row["name"], path: row["path"], format: row["format"], hasPassword: password != nil,
            digest: row["digest"], addedAt: Date(unixMilliseconds: row["addedAt"]),
            checkedAt: (row["checkedAt"] as Int64?).map(Date.init(unixMilliseconds:)),
            changedAt: (row["changedAt"] as Int64?).map(Date.init(unixMilliseconds:)), problem: row["problem"])
    }

    // MARK: Sealing

    // A followed file's password and each entry's snapshot are sealed like
    // secrets, under the vault key, with associated data that names what they
    // are and whose: neither opens moved to another file or account.

    func sealFollowPassword(_ password: SecretBytes, for id: UUID) throws -> Data {
        try seal(password, associatedData: "follow-password:" + id.vaultString)
    }

    func openFollowPassword(_ sealed: Data, for id: UUID) throws -> SecretBytes {
        try openSealed(sealed, associatedData: "follow-password:" + id.vaultString)
    }

    func sealSnapshot(_ snapshot: FollowSnapshot, file: UUID, account: UUID) throws -> Data {
        var encoded = try JSONEncoder().encode(snapshot)
        defer { encoded.resetBytes(in: 0..<encoded.count) }
        return try seal(SecretBytes(encoded), associatedData: Self.snapshotAssociatedText(file: file, account: account))
    }

    func openSnapshot(_ sealed: Data, file: UUID, account: UUID) throws -> FollowSnapshot {
        let plain = try openSealed(sealed, associatedData: Self.snapshotAssociatedText(file: file, account: account))
        do {
            return try JSONDecoder().decode(FollowSnapshot.self, from: plain.unprotectedData())
        } catch {
            throw VaultStoreError.corrupt(location.databaseURL.path)
        }
    }

    private func seal(_ plain: SecretBytes, associatedData: String) throws -> Data {
        try AEAD.seal(plain, key: key(), associatedData: Data(associatedData.utf8))
    }

    private func openSealed(_ sealed: Data, associatedData: String) throws -> SecretBytes {
        do {
            return try AEAD.open(sealed, key: key(), associatedData: Data(associatedData.utf8))
        } catch CryptoError.authenticationFailed {
            throw VaultStoreError.corrupt(location.databaseURL.path)
        }
    }

    private static func snapshotAssociatedText(file: UUID, account: UUID) -> String {
        "follow-snapshot:" + file.vaultString + ":" + account.vaultString
    }
}
