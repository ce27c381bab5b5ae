import AuthCatCore
import AuthCatEssentials
import Foundation

/// The manifest as a remote holds it, of either version (docs/FORMAT.md
/// §5.2, §5.9), and what a secret opens in it.
enum StoredManifest {
    case version1(Manifest)
    /// Version 2 or 3.
    case version2(KeyManifest)

    /// What a sync passphrase or recovery key opens. A version 1 manifest has
    /// no manifest key and no authority: those are made when it is upgraded.
    struct Unlocked {
        let keys: SyncKeys
        let version2: KeyManifest.Unlocked?
    }

    /// The manifest of `vaultID` on `remote` and its stored bytes.
    static func read(from remote: any Remote, vaultID: String) async throws -> (StoredManifest, Data) {
        guard let data = try await remote.get(RemoteLayout.manifest(vaultID)) else {
            throw SyncError(.other, "the remote vault's manifest is missing; nothing was changed")
        }
        return (try decode(data, vaultID: vaultID), data)
    }

    static func decode(_ data: Data, vaultID: String) throws -> StoredManifest {
        if let version2 = try? KeyManifest.decode(data, expectedVaultID: vaultID) { return .version2(version2) }
        return .version1(try Manifest.decode(data, expectedVaultID: vaultID))
    }

    var vaultID: String {
        switch self {
        case .version1(let manifest): manifest.vaultID
        case .version2(let manifest): manifest.vaultID
        }
    }

    var kdf: KDFParameters {
        switch self {
        case .version1(let manifest): manifest.kdf
        case .version2(let manifest): manifest.kdf
        }
    }

    var epoch: Int64 {
        if case .version2(let manifest) = self { return manifest.epoch }
        return 0
    }

    /// Its generation: 0 before version 3.
    var generation: Int64 {
        if case .version2(let manifest) = self { return manifest.generationNumber }
        return 0
    }

    /// Where a device that joins with it starts following rotations; nil for version 1.
    var position: RotationChain.Position? {
        if case .version2(let manifest) = self { return manifest.position }
        return nil
    }

    /// What `secret` opens, believed: a recovery key that opened a sealed box
    /// (which anyone can make) must also see the rotation records on `remote`
    /// lead from its anchor to this manifest's position, else it is refused as
    /// not authentic and nothing it opened is used.
    func unlock(with secret: SyncSecret, on remote: any Remote) async throws -> Unlocked {
        let unlocked: Unlocked
        do {
            switch self {
            case .version1(let manifest): return Unlocked(keys: try manifest.unlock(with: secret), version2: nil)
            case .version2(let manifest):
                let opened = try manifest.unlock(with: secret)
                unlocked = Unlocked(keys: opened.keys, version2: opened)
            }
        } catch let error as KeyDerivationLimitError {
            throw error.from("the remote vault's manifest")
        }
        guard case .version2(let manifest) = self, let anchor = unlocked.version2?.recoveryAnchor else {
            return unlocked
        }
        let chain = RotationChain(remote: remote, vault: manifest.vaultID)
        let listing = try await remote.list(prefix: EpochLayout.rotationPrefix(manifest.vaultID))
        guard try await chain.proves(manifest.position, from: anchor, listing: listing) else {
            throw SyncError(
                .integrity,
                "the recovery key opens the remote vault's manifest, but no chain of rotation records leads to it "
                    + "from the last keys the recovery key vouched for (epoch \(anchor.epoch)); it is not used. "
                    + "Join with the sync passphrase, or check the remote")
        }
        return unlocked
    }
}
