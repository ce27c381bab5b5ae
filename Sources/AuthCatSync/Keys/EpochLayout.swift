import AuthCatCore
import AuthCatEssentials
import Foundation

/// The names of the key objects and of the objects of epochs after the first
/// (docs/FORMAT.md §5.9). Version 1 readers parse none of them, so they ignore them.
///
/// ```
/// authcat-<vault>/key-<device>                       a device's certified public key
/// authcat-<vault>/rotation-<epoch>-<digest>          the rotation to <epoch>, signed by the authority
/// authcat-<vault>/e-<epoch>/<device>/b-<n>           a batch written under <epoch>'s master key
/// authcat-<vault>/e-<epoch>/<device>/s-<n>           a snapshot written under <epoch>'s master key
/// authcat-<vault>/e-<epoch>/disabled-<g>             a "disabled everywhere" marker of <epoch>
/// ```
/// `<epoch>` is 10 digits like every number; epoch 0 is the original key,
/// whose objects keep the names of §5.1. `<digest>` is the first 16 hex digits
/// of the SHA-256 of the record's stored bytes, so two rotations to one epoch
/// never take each other's name and every device sees both in its listing.
enum EpochLayout {
    static let digestLength = 16

    enum Name: Equatable {
        case deviceKey(vault: String, device: String)
        case rotation(vault: String, epoch: Int64, digest: String)
        /// An object of an epoch ≥ 1; `inner` is what its name means within the epoch's folder.
        case epochObject(vault: String, epoch: Int64, inner: RemoteLayout.Name)
    }

    static func deviceKey(_ vault: String, device: String) -> String {
        "\(RemoteLayout.folder(vault))/key-\(device)"
    }

    static func rotation(_ vault: String, epoch: Int64, storedBytes: Data) -> String {
        "\(RemoteLayout.folder(vault))/rotation-\(padded(epoch))-\(digest(of: storedBytes))"
    }

    static func rotationPrefix(_ vault: String) -> String { "\(RemoteLayout.folder(vault))/rotation-" }

    static func digest(of storedBytes: Data) -> String {
        String(ObjectHash.of(storedBytes).prefix(digestLength))
    }

    /// The folder of an epoch's objects: the vault's folder itself for epoch 0.
    static func epochFolder(_ vault: String, epoch: Int64) -> String {
        epoch == 0 ? RemoteLayout.folder(vault) : "\(RemoteLayout.folder(vault))/e-\(padded(epoch))"
    }

    /// `name` (a §5.1 name of `vault`) as it is written in `epoch`.
    static func inEpoch(_ epoch: Int64, _ name: RemoteLayout.Name) -> String {
        let plain = RemoteLayout.name(name)
        let vault = vaultOf(name)
        guard epoch > 0, plain.hasPrefix(RemoteLayout.folder(vault) + "/") else {
            return plain
        }
        return epochFolder(vault, epoch: epoch) + plain.dropFirst(RemoteLayout.folder(vault).count)
    }

    static func parse(_ name: String) -> Name? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts[0].hasPrefix(RemoteLayout.prefix) else { return nil }
        let vault = String(parts[0].dropFirst(RemoteLayout.prefix.count))
        guard RemoteLayout.isVaultID(vault) else { return nil }
        if parts.count == 2 { return parseTopLevel(parts[1], vault: vault) }
        guard parts[1].hasPrefix("e-"), let epoch = RemoteLayout.number(parts[1].dropFirst(2)),
            let inner = RemoteLayout.parse(([parts[0]] + parts[2...]).joined(separator: "/")),
            inner != .manifest(vault: vault), inner != .deletedMarker(vault: vault)
        else { return nil }
        return .epochObject(vault: vault, epoch: epoch, inner: inner)
    }

    /// The newest epoch the names show (rotations and epoch folders), 0 if none:
    /// a device that sees a newer epoch than its own stops writing.
    static func newestListedEpoch(_ names: [String], vault: String) -> Int64 {
        names.compactMap(parse).reduce(0) { newest, name in
            switch name {
            case .rotation(let v, let epoch, _) where v == vault: max(newest, epoch)
            case .epochObject(let v, let epoch, _) where v == vault: max(newest, epoch)
            default: newest
            }
        }
    }

    private static func parseTopLevel(_ last: String, vault: String) -> Name? {
        if last.hasPrefix("key-") {
            let device = String(last.dropFirst(4))
            return RemoteLayout.isDeviceID(device) ? .deviceKey(vault: vault, device: device) : nil
        }
        let pieces = last.split(separator: "-", omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0] == "rotation", let epoch = RemoteLayout.number(pieces[1]),
            pieces[2].utf8.count == digestLength,
            pieces[2].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        return .rotation(vault: vault, epoch: epoch, digest: String(pieces[2]))
    }

    private static func vaultOf(_ name: RemoteLayout.Name) -> String {
        switch name {
        case .manifest(let vault), .batch(let vault, _, _), .snapshot(let vault, _, _),
            .disabledMarker(let vault, _), .deletedMarker(let vault):
            vault
        }
    }

    private static func padded(_ number: Int64) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, RemoteLayout.sequenceDigits - digits.count)) + digits
    }
}
