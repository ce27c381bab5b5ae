import AuthCatEssentials
import GRDB

extension Vault {
    /// Named, append-only migrations, one step for each of
    /// `VaultSchemaVersion.Migration` (their one list of names), in its order.
    /// The schema is documented in docs/FORMAT.md.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in VaultSchemaVersion.Migration.allCases {
            migrator.registerMigration(migration.name) { db in try migrate(db, migration) }
        }
        return migrator
    }

    /// What `migration` changes; never edit a step that has shipped.
    private static func migrate(_ db: Database, _ migration: VaultSchemaVersion.Migration) throws {
        switch migration {
        case .accountsAndHistory:
            try db.execute(
                sql: """
                    CREATE TABLE vault (
                        singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
                        vaultID TEXT NOT NULL,
                        deviceID TEXT NOT NULL,
                        deviceName TEXT NOT NULL,
                        keyCheck BLOB NOT NULL,
                        createdAt INTEGER NOT NULL
                    );
                    CREATE TABLE account (
                        id TEXT PRIMARY KEY NOT NULL,
                        issuer TEXT NOT NULL,
                        name TEXT NOT NULL CHECK (name <> ''),
                        identityKey TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('totp', 'hotp', 'steam')),
                        algorithm TEXT NOT NULL CHECK (algorithm IN ('sha1', 'sha256', 'sha512')),
                        digits INTEGER NOT NULL CHECK (digits BETWEEN 5 AND 10),
                        period INTEGER NOT NULL CHECK (period >= 1),
                        counter INTEGER NOT NULL CHECK (counter >= 0),
                        sealedSecret BLOB NOT NULL,
                        tags TEXT NOT NULL,
                        note TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        updatedAt INTEGER NOT NULL,
                        deletedAt INTEGER
                    );
                    CREATE UNIQUE INDEX account_identity ON account(identityKey) WHERE deletedAt IS NULL;
                    CREATE TABLE historyTransaction (
                        number INTEGER PRIMARY KEY AUTOINCREMENT,
                        timestamp INTEGER NOT NULL,
                        author TEXT NOT NULL CHECK (author IN ('cli', 'import', 'restore', 'sync')),
                        deviceID TEXT NOT NULL,
                        deviceName TEXT NOT NULL
                    );
                    CREATE TABLE historyChange (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        transactionNumber INTEGER NOT NULL REFERENCES historyTransaction(number),
                        entity TEXT NOT NULL CHECK (entity IN ('account', 'preference')),
                        recordID TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('insert', 'update', 'delete')),
                        fields TEXT NOT NULL
                    );
                    CREATE INDEX historyChange_transaction ON historyChange(transactionNumber);
                    CREATE INDEX historyChange_record ON historyChange(recordID);
                    CREATE TABLE setting (
                        key TEXT PRIMARY KEY NOT NULL CHECK (length(key) BETWEEN 1 AND 64),
                        value TEXT NOT NULL
                    );
                    CREATE TABLE preference (
                        key TEXT PRIMARY KEY NOT NULL CHECK (length(CAST(key AS BLOB)) BETWEEN 1 AND 64),
                        value TEXT NOT NULL,
                        updatedAt INTEGER NOT NULL
                    );
                    """)
        // Yandex and mOTP: two more kinds, MD5 (mOTP's hash), and the sealed
        // PIN these kinds need. SQLite cannot change a CHECK constraint, so
        // the account table is rebuilt, every row copied as it was.
        case .pinKinds:
            try db.execute(
                sql: """
                    CREATE TABLE account_v2 (
                        id TEXT PRIMARY KEY NOT NULL,
                        issuer TEXT NOT NULL,
                        name TEXT NOT NULL CHECK (name <> ''),
                        identityKey TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('totp', 'hotp', 'steam', 'yandex', 'motp')),
                        algorithm TEXT NOT NULL CHECK (algorithm IN ('sha1', 'sha256', 'sha512', 'md5')),
                        digits INTEGER NOT NULL CHECK (digits BETWEEN 5 AND 10),
                        period INTEGER NOT NULL CHECK (period >= 1),
                        counter INTEGER NOT NULL CHECK (counter >= 0),
                        sealedSecret BLOB NOT NULL,
                        sealedPIN BLOB,
                        tags TEXT NOT NULL,
                        note TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        updatedAt INTEGER NOT NULL,
                        deletedAt INTEGER,
                        CHECK ((sealedPIN IS NOT NULL) = (kind IN ('yandex', 'motp'))),
                        CHECK ((algorithm = 'md5') = (kind = 'motp'))
                    );
                    INSERT INTO account_v2 (id, issuer, name, identityKey, kind, algorithm, digits, period, counter,
                                            sealedSecret, sealedPIN, tags, note, createdAt, updatedAt, deletedAt)
                        SELECT id, issuer, name, identityKey, kind, algorithm, digits, period, counter,
                               sealedSecret, NULL, tags, note, createdAt, updatedAt, deletedAt FROM account;
                    DROP TABLE account;
                    ALTER TABLE account_v2 RENAME TO account;
                    CREATE UNIQUE INDEX account_identity ON account(identityKey) WHERE deletedAt IS NULL;
                    """)
        // Rotations of the sync key and the devices they revoked: two more
        // entities and kinds, and the device's name as it was (`label`).
        // The table is rebuilt for its CHECKs, every row copied as it was.
        case .syncKeyHistory:
            try db.execute(
                sql: """
                    CREATE TABLE historyChange_v3 (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        transactionNumber INTEGER NOT NULL REFERENCES historyTransaction(number),
                        entity TEXT NOT NULL CHECK (entity IN ('account', 'preference', 'sync_key', 'device')),
                        recordID TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('insert', 'update', 'delete', 'rotate', 'revoke')),
                        fields TEXT NOT NULL,
                        label TEXT
                    );
                    INSERT INTO historyChange_v3 (id, transactionNumber, entity, recordID, kind, fields, label)
                        SELECT id, transactionNumber, entity, recordID, kind, fields, NULL FROM historyChange;
                    DROP TABLE historyChange;
                    ALTER TABLE historyChange_v3 RENAME TO historyChange;
                    CREATE INDEX historyChange_transaction ON historyChange(transactionNumber);
                    CREATE INDEX historyChange_record ON historyChange(recordID);
                    """)
        // Files the vault follows (`authcat follow`), the accounts each
        // brought, and a fourth author, a followed file, named in `source`.
        // historyTransaction is rebuilt for its CHECK, every row copied as it was.
        case .followedFiles:
            try db.execute(
                sql: """
                    CREATE TABLE historyTransaction_v4 (
                        number INTEGER PRIMARY KEY AUTOINCREMENT,
                        timestamp INTEGER NOT NULL,
                        author TEXT NOT NULL CHECK (author IN ('cli', 'import', 'restore', 'sync', 'follow')),
                        deviceID TEXT NOT NULL,
                        deviceName TEXT NOT NULL,
                        source TEXT,
                        CHECK ((source IS NOT NULL) = (author = 'follow'))
                    );
                    INSERT INTO historyTransaction_v4 (number, timestamp, author, deviceID, deviceName, source)
                        SELECT number, timestamp, author, deviceID, deviceName, NULL FROM historyTransaction;
                    DROP TABLE historyTransaction;
                    ALTER TABLE historyTransaction_v4 RENAME TO historyTransaction;
                    CREATE TABLE followedFile (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL UNIQUE CHECK (length(CAST(name AS BLOB)) BETWEEN 1 AND 64),
                        path TEXT NOT NULL,
                        format TEXT NOT NULL,
                        sealedPassword BLOB,
                        digest BLOB,
                        addedAt INTEGER NOT NULL,
                        checkedAt INTEGER,
                        changedAt INTEGER,
                        problem TEXT
                    );
                    CREATE TABLE followedEntry (
                        followID TEXT NOT NULL REFERENCES followedFile(id) ON DELETE CASCADE,
                        accountID TEXT NOT NULL,
                        sourceID TEXT,
                        sealedSnapshot BLOB NOT NULL,
                        PRIMARY KEY (followID, accountID)
                    );
                    CREATE INDEX followedEntry_account ON followedEntry(accountID);
                    """)
        }
    }
}
