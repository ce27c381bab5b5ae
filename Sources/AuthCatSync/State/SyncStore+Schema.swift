import GRDB

extension SyncStore {
    /// Named, append-only migrations: never edit one that has shipped, add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-sync-state") { db in
            try db.execute(
                sql: """
                    CREATE TABLE state (
                        singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
                        enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
                        remoteURL TEXT NOT NULL,
                        remoteVaultID TEXT NOT NULL,
                        previousRemoteVaultID TEXT,
                        deviceID TEXT NOT NULL,
                        sealedMasterKey BLOB NOT NULL,
                        stampCursor INTEGER,
                        hlcWall INTEGER NOT NULL CHECK (hlcWall >= 0),
                        hlcLogical INTEGER NOT NULL CHECK (hlcLogical >= 0),
                        nextSequence INTEGER NOT NULL CHECK (nextSequence >= 1),
                        chainHead TEXT NOT NULL,
                        snapshotSequence INTEGER NOT NULL CHECK (snapshotSequence >= 0),
                        lastSuccessfulSync INTEGER,
                        importedOnce INTEGER NOT NULL CHECK (importedOnce IN (0, 1)),
                        remoteDeleted INTEGER NOT NULL CHECK (remoteDeleted IN (0, 1)),
                        vaultMismatch INTEGER NOT NULL CHECK (vaultMismatch IN (0, 1)),
                        disabledEverywhere INTEGER NOT NULL CHECK (disabledEverywhere IN (0, 1))
                    );
                    CREATE TABLE peer (
                        deviceID TEXT PRIMARY KEY NOT NULL,
                        vaultDeviceID TEXT NOT NULL,
                        name TEXT NOT NULL,
                        sequence INTEGER NOT NULL CHECK (sequence >= 0),
                        chainHash TEXT NOT NULL,
                        seenSequence INTEGER NOT NULL CHECK (seenSequence >= 0),
                        lastSeen INTEGER
                    );
                    CREATE TABLE record (
                        entity TEXT NOT NULL CHECK (entity IN ('account', 'preference')),
                        recordID TEXT NOT NULL,
                        clocks TEXT NOT NULL,
                        pending INTEGER NOT NULL CHECK (pending IN (0, 1)),
                        PRIMARY KEY (entity, recordID)
                    );
                    CREATE INDEX record_pending ON record(pending) WHERE pending = 1;
                    """)
        }
        migrator.registerMigration("v2-rejected-objects") { db in
            try db.execute(
                sql: """
                    CREATE TABLE rejected (
                        name TEXT PRIMARY KEY NOT NULL,
                        size INTEGER NOT NULL CHECK (size >= 0),
                        kind TEXT NOT NULL CHECK (kind IN ('rejected', 'replayed')),
                        detail TEXT NOT NULL,
                        firstSeen INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v3-disabled-generation") { db in
            try db.execute(
                sql: """
                    ALTER TABLE state ADD COLUMN disabledGeneration INTEGER NOT NULL DEFAULT 0 CHECK (disabledGeneration >= 0);
                    """)
        }
        migrator.registerMigration("v4-object-versions-and-standing-issues") { db in
            // Rejections were remembered by size, which a repaired object keeps:
            // forget them, so each is read once more and remembered by version.
            try db.execute(
                sql: """
                    DELETE FROM rejected;
                    ALTER TABLE rejected ADD COLUMN version TEXT NOT NULL DEFAULT '';
                    CREATE TABLE issue (
                        kind TEXT NOT NULL CHECK (kind IN ('rollback', 'gap', 'blocked', 'rejected', 'replayed')),
                        subject TEXT NOT NULL,
                        detail TEXT NOT NULL,
                        firstSeen INTEGER NOT NULL,
                        PRIMARY KEY (kind, subject)
                    );
                    """)
        }
        migrator.registerMigration("v5-manifest-copy") { db in
            // The manifest is not sealed: each sync compares it with the copy
            // taken when this device joined or created the remote vault.
            try db.execute(
                sql: """
                    ALTER TABLE state ADD COLUMN manifestHash TEXT;
                    ALTER TABLE state ADD COLUMN manifestVersion TEXT;
                    """)
        }
        migrator.registerMigration("v6-reread-clocks-ahead") { db in
            // An object rejected for a clock ahead of this device's is read
            // again on every sync now (this device's clock may have been
            // behind): forget those an earlier authcat remembered for good.
            try db.execute(
                sql: "DELETE FROM rejected WHERE detail LIKE '%more than a day ahead of this device''s clock%'")
        }
        migrator.registerMigration("v7-authority-and-device-key") { db in
            // The authority pinned at join (it signs manifests and rotations),
            // this device's sealed box key and the key epoch it holds (FORMAT.md §5.9).
            try db.execute(
                sql: """
                    ALTER TABLE state ADD COLUMN authorityPublicKey BLOB;
                    ALTER TABLE state ADD COLUMN sealedDeviceKey BLOB;
                    ALTER TABLE state ADD COLUMN keyEpoch INTEGER NOT NULL DEFAULT 0 CHECK (keyEpoch >= 0);
                    ALTER TABLE state ADD COLUMN keyEpochRecord TEXT NOT NULL DEFAULT '';
                    """)
        }
        migrator.registerMigration("v8-create-only-probe") { db in
            // What `enable` found out about the remote's create-only writes
            // (a WebDAV server may ignore If-None-Match); NULL: not probed.
            try db.execute(sql: "ALTER TABLE state ADD COLUMN createOnlyEnforced BOOLEAN")
        }
        migrator.registerMigration("v9-device-names") { db in
            // This device's name on the remote (NULL: the vault's own device name) and the name
            // its newest batch carried, so that a rename reaches the others; when it joined; when
            // each other device was first seen; the devices proved revoked (docs/FORMAT.md §5.9).
            try db.execute(
                sql: """
                    ALTER TABLE state ADD COLUMN deviceName TEXT;
                    ALTER TABLE state ADD COLUMN announcedName TEXT;
                    ALTER TABLE state ADD COLUMN joinedAt INTEGER;
                    ALTER TABLE peer ADD COLUMN firstSeen INTEGER;
                    CREATE TABLE revocation (
                        deviceID TEXT PRIMARY KEY NOT NULL,
                        epoch INTEGER NOT NULL CHECK (epoch >= 1),
                        record TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v10-revoked") { db in
            // A key rotation on another device revoked this one: it never syncs
            // with that remote vault again (FORMAT.md §5.9), until `sync disable` acknowledges it.
            try db.execute(
                sql: "ALTER TABLE state ADD COLUMN revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))")
        }
        migrator.registerMigration("v11-certified-devices") { db in
            // Devices the authority certified, read from their `key-` objects: one that
            // joined and never wrote a batch is still a device, and must be revocable.
            try db.execute(
                sql: """
                    CREATE TABLE certifiedDevice (
                        deviceID TEXT PRIMARY KEY NOT NULL,
                        firstSeen INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v12-seen-only-opened") { db in
            // A position is recorded only from an object that opened (DESIGN.md principle 9): forget the
            // numbers earlier versions took from listings, which a planted and removed object left as a
            // rollback for good, and the rows of device folders none of whose objects ever opened (their
            // placeholder name is their id, which no sanitized name is).
            try db.execute(
                sql: """
                    UPDATE peer SET seenSequence = sequence WHERE seenSequence != sequence;
                    DELETE FROM peer WHERE sequence = 0 AND firstSeen IS NULL AND name = deviceID
                        AND vaultDeviceID = deviceID;
                    """)
        }
        migrator.registerMigration("v13-device-joined") { db in
            // When each other device joined the remote vault, as its own batches say (FORMAT.md §5.4).
            try db.execute(sql: "ALTER TABLE peer ADD COLUMN joinedAt INTEGER")
        }
        migrator.registerMigration("v14-manifest-generation-and-box-keys") { db in
            // The newest manifest generation this device accepted: an older one is a rollback,
            // reported and never used (FORMAT.md §5.9); 0: a version 2 manifest, or none yet. And
            // each certified device's box key as first read, which never changes for a device: a
            // rotation seals to no other key, whoever signed it (NULL: read before it was kept).
            try db.execute(
                sql: """
                    ALTER TABLE state ADD COLUMN manifestGeneration INTEGER NOT NULL DEFAULT 0
                        CHECK (manifestGeneration >= 0);
                    ALTER TABLE certifiedDevice ADD COLUMN boxPublicKey BLOB;
                    """)
        }
        migrator.registerMigration("v15-unexported-fields") { db in
            // The fields of each record this device changed and has not exported yet (a JSON
            // array), so that an incoming change replacing an offline edit is reported.
            try db.execute(sql: "ALTER TABLE record ADD COLUMN unexported TEXT NOT NULL DEFAULT '[]'")
        }
        return migrator
    }
}
