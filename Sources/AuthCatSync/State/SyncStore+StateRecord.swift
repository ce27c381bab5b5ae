import Foundation
import GRDB

extension SyncStore {
    /// The one row of `sync.sqlite`'s `state` table: this device's sync settings
    /// and progress for the remote vault it joined. Holds no secret in the clear:
    /// the master key is sealed under a key derived from the vault key.
    struct StateRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "state"

        var singleton = 1
        var enabled: Bool
        /// The remote's display location (no credentials).
        var remoteURL: String
        var remoteVaultID: String
        /// The remote vault joined before this one, if any: preferences arriving
        /// from the new one are reported as an account change.
        var previousRemoteVaultID: String?
        /// This device's id on the remote (random, made when joining).
        var deviceID: String
        var sealedMasterKey: Data
        /// The newest local history transaction already stamped; nil until the
        /// first sync stamps the whole vault.
        var stampCursor: Int64?
        var hlcWall: Int64 = 0
        var hlcLogical: Int64 = 0
        /// The sequence number of this device's next batch.
        var nextSequence: Int64 = 1
        /// The hash of this device's newest batch, "" before the first.
        var chainHead = ""
        /// The batch sequence number the newest snapshot of this device covers, 0 if none.
        var snapshotSequence: Int64 = 0
        var lastSuccessfulSync: Int64?
        /// Whether anything was imported from this remote vault yet.
        var importedOnce = false
        var remoteDeleted = false
        var vaultMismatch = false
        var disabledEverywhere = false
        /// The newest "disabled everywhere" generation this device has already
        /// obeyed or stepped past by turning sync on: only a newer marker turns it off.
        var disabledGeneration: Int64 = 0
        /// The SHA-256 (lowercase hex) of the manifest as this device created or
        /// joined it; nil for states from before it was kept, until a sync takes
        /// the manifest it finds. A manifest that differs is reported, never used.
        var manifestHash: String?
        /// The manifest's listed version when its hash was last checked, so that
        /// a sync downloads it only when the listing says it was written again.
        var manifestVersion: String?
        /// The generation of the newest manifest this device accepted (0 for
        /// version 2): an older one put back is a rollback, reported and never used.
        var manifestGeneration: Int64 = 0
        /// Whether the remote refused a second create-only write of one probe
        /// object when sync was turned on (`RemoteCapabilities.createOnlyEnforced`); nil for
        /// states from before it was probed.
        var createOnlyEnforced: Bool?
        /// The authority's public key, pinned when this device created or joined a
        /// version 2 remote vault (or changed its passphrase here); nil before.
        /// A changed manifest that it signed is taken without a question.
        var authorityPublicKey: Data?
        /// This device's X25519 secret key, sealed under the vault's `acsyncdk` subkey (`DeviceKeys`).
        var sealedDeviceKey: Data?
        /// The key epoch this device holds, and the hash of the rotation record that made it ("" for 0).
        var keyEpoch: Int64 = 0
        var keyEpochRecord = ""
        /// A proved rotation revoked this device: sync stopped for good here, local data kept.
        var revoked = false
        /// This device's name on the remote, as its batches carry it; nil for
        /// states from before names were chosen, which use the vault's device name.
        var deviceName: String?
        /// The name this device's newest batch carried; a sync that finds it
        /// differs from `deviceName` writes a batch even with nothing else to send.
        var announcedName: String?
        /// When this device joined or created the remote vault, in Unix milliseconds; nil before it was kept.
        var joinedAt: Int64?

        /// Batches this device wrote since its last snapshot.
        var batchesSinceSnapshot: Int64 {
            max(0, nextSequence - 1 - snapshotSequence)
        }

        var clock: HybridLogicalClock {
            get { HybridLogicalClock(wall: hlcWall, logical: hlcLogical) }
            set {
                hlcWall = newValue.wall
                hlcLogical = newValue.logical
            }
        }
    }
}
