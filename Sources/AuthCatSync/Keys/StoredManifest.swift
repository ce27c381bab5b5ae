import AuthCatCore
import AuthCatEssentials
import Foundation

/// The manifest as a remote holds it, of either version (docs/FORMAT.md
/// §5.2, §5.9), and what a secret opens in it.
enum StoredManifest {
    case version1(Manifest)
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

    /// Where a device that joins with it starts following rotations; nil for version 1.
    var position: RotationChain.Position? {
        if case .version2(let manifest) = self { return manifest.position }
        return nil
    }

    func unlock(with secret: SyncService.Secret) throws -> Unlocked {
        do {
            switch self {
            case .version1(let manifest): return Unlocked(keys: try manifest.unlock(with: secret), version2: nil)
            case .version2(let manifest):
                let unlocked = try manifest.unlock(with: secret)
                return Unlocked(keys: unlocked.keys, version2: unlocked)
            }
        } catch let error as KeyDerivationLimitError {
            throw error.from("the remote vault's manifest")
        }
    }
}
