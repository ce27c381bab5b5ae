import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// A version 2 remote vault on a `MemoryRemote` with certified devices, for
/// the key tests: what `sync enable` will make, built directly.
struct KeyedRemoteFixture {
    static let passphrase = "correct horse battery"

    let remote = MemoryRemote()
    let clock = ManualClock()
    let vaultID: String
    let recoveryKey: RecoveryKey
    let manifestKey: SecretBytes
    let authority: AuthorityKey
    let keys: SyncKeys
    let kdf: KDFParameters
    /// Device id → its key pair.
    var devices: [String: DeviceKeys] = [:]

    init(devices names: [String] = ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc"]) async throws {
        vaultID = try RemoteLayout.newVaultID()
        recoveryKey = try RecoveryKey.generate()
        manifestKey = try KeyManifest.newManifestKey()
        authority = try AuthorityKey.generate()
        keys = try SyncKeys.generate()
        kdf = try KDFParameters.minimumForTesting()
        let origin = RotationChain.Position(epoch: 0, recordHash: "", authority: authority.publicKey)
        let manifest = try KeyManifest.make(
            vaultID: vaultID, epoch: 0, rotation: "", manifestKey: manifestKey, keys: keys,
            authority: authority,
            wraps: try ManifestKeyWraps.make(
                manifestKey, passphrase: SecretBytes(utf8: Self.passphrase), kdf: kdf,
                recovery: .key(recoveryKey, anchoredAt: origin), vaultID: vaultID),
            createdAt: clock.now())
        try await remote.put(RemoteLayout.manifest(vaultID), data: try manifest.encoded())
        for name in names {
            let deviceKeys = try DeviceKeys.generate()
            devices[name] = deviceKeys
            let certificate = try DeviceCertificate.issue(
                vault: vaultID, device: name, boxPublicKey: deviceKeys.boxKeyPair.publicKey, by: authority,
                at: clock.now())
            try await remote.put(EpochLayout.deviceKey(vaultID, device: name), data: try certificate.encoded())
        }
    }

    var passphrase: SyncSecret { .passphrase(SecretBytes(utf8: Self.passphrase)) }
    var origin: RotationChain.Position {
        RotationChain.Position(epoch: 0, recordHash: "", authority: authority.publicKey)
    }

    func rotation(by device: String, on remote: (any Remote)? = nil) throws -> KeyRotation {
        _ = try XCTUnwrap(devices[device])
        return KeyRotation(remote: remote ?? self.remote, vaultID: vaultID, device: device, clock: clock)
    }

    func follow(_ device: String, from position: RotationChain.Position? = nil) async throws -> RotationChain.Result {
        try await RotationChain(remote: remote, vault: vaultID).follow(
            from: position ?? origin, listing: try await remote.list(prefix: ""), device: device,
            deviceKeys: try XCTUnwrap(devices[device]))
    }

    /// Rotates from `position` by `device`, revoking `revoking`; returns what was published.
    @discardableResult
    func rotate(
        by device: String = "aaaaaaaaaaaaaaaa", revoking: Set<String> = [],
        from position: RotationChain.Position? = nil,
        cuts: [RotationRecord.Cut] = [], secret: SyncSecret? = nil,
        newSecrets: KeyRotation.NewSecrets? = nil
    ) async throws -> KeyRotation.Prepared {
        let rotation = try rotation(by: device)
        let prepared = try await rotation.prepare(
            secret: secret ?? passphrase, position: position ?? origin, devices: Set(devices.keys),
            boxKeys: try await boxKeys(at: position ?? origin), revoking: revoking, cuts: cuts,
            newSecrets: newSecrets)
        try await rotation.publish(prepared)
        return prepared
    }

    /// Each certified device's box key, as the certificates of the authority at `position` hold them.
    func boxKeys(at position: RotationChain.Position? = nil) async throws -> [String: Data] {
        try await KeyRotation(remote: remote, vaultID: vaultID, device: "", clock: clock)
            .certifiedKeys(authority: (position ?? origin).authority).mapValues(\.boxPublicKey)
    }

    func manifest() async throws -> KeyManifest {
        guard case .version2(let manifest) = try await StoredManifest.read(from: remote, vaultID: vaultID).0 else {
            throw SyncError(.other, "not a version 2 manifest")
        }
        return manifest
    }
}

extension RotationChain.Outcome {
    var adoptedKeys: SyncKeys? {
        if case .adopted(_, let keys, _) = self { return keys }
        return nil
    }

    var adoptedPosition: RotationChain.Position? {
        if case .adopted(let position, _, _) = self { return position }
        return nil
    }

    var isCurrent: Bool {
        if case .current = self { return true }
        return false
    }

    var revokedEpoch: Int64? {
        if case .revoked(let epoch, _, _) = self { return epoch }
        return nil
    }

    var withheld: (listed: Int64, proved: Int64)? {
        if case .withheld(let listed, let proved) = self { return (listed, proved) }
        return nil
    }
}
