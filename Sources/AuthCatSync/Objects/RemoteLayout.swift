import AuthCatCore
import Foundation

/// The names of the sync engine's objects on a remote (docs/FORMAT.md §5.1).
///
/// ```
/// authcat-<vault>/manifest                 the manifest: key parameters and wrapped master keys
/// authcat-<vault>/<device>/b-<10 digits>   a device's change batch number n
/// authcat-<vault>/<device>/s-<10 digits>   a device's snapshot covering its batches up to n
/// authcat-<vault>/disabled                 "sync turned off everywhere" marker
/// authcat-<vault>.deleted                  "remote data deleted" marker, outside the vault's folder
/// ```
/// Vault ids are 32 lowercase hex digits, device ids 16; both random. Names
/// carry everything a sync with nothing new needs to know, so it is one listing.
enum RemoteLayout {
    static let prefix = "authcat-"
    static let sequenceDigits = 10

    enum Name: Equatable {
        case manifest(vault: String)
        case batch(vault: String, device: String, sequence: Int64)
        case snapshot(vault: String, device: String, sequence: Int64)
        case disabledMarker(vault: String)
        case deletedMarker(vault: String)
    }

    static func folder(_ vault: String) -> String { "\(prefix)\(vault)" }
    static func manifest(_ vault: String) -> String { "\(folder(vault))/manifest" }
    static func disabledMarker(_ vault: String) -> String { "\(folder(vault))/disabled" }
    static func deletedMarker(_ vault: String) -> String { "\(folder(vault)).deleted" }

    static func batch(_ vault: String, device: String, sequence: Int64) -> String {
        "\(folder(vault))/\(device)/b-\(padded(sequence))"
    }

    static func snapshot(_ vault: String, device: String, sequence: Int64) -> String {
        "\(folder(vault))/\(device)/s-\(padded(sequence))"
    }

    static func name(_ name: Name) -> String {
        switch name {
        case .manifest(let vault): manifest(vault)
        case .batch(let vault, let device, let sequence): batch(vault, device: device, sequence: sequence)
        case .snapshot(let vault, let device, let sequence): snapshot(vault, device: device, sequence: sequence)
        case .disabledMarker(let vault): disabledMarker(vault)
        case .deletedMarker(let vault): deletedMarker(vault)
        }
    }

    /// What a remote object name means, or nil for anything that is not ours.
    static func parse(_ name: String) -> Name? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, first.hasPrefix(prefix) else { return nil }
        if parts.count == 1 {
            guard first.hasSuffix(".deleted") else { return nil }
            let vault = String(first.dropFirst(prefix.count).dropLast(".deleted".count))
            return isVaultID(vault) ? .deletedMarker(vault: vault) : nil
        }
        let vault = String(first.dropFirst(prefix.count))
        guard isVaultID(vault) else { return nil }
        if parts.count == 2 {
            switch parts[1] {
            case "manifest": return .manifest(vault: vault)
            case "disabled": return .disabledMarker(vault: vault)
            default: return nil
            }
        }
        guard parts.count == 3, isDeviceID(parts[1]), let (kind, sequence) = sequenceName(parts[2]) else { return nil }
        return kind == "b" ? .batch(vault: vault, device: parts[1], sequence: sequence)
            : .snapshot(vault: vault, device: parts[1], sequence: sequence)
    }

    static func newVaultID() throws -> String { try randomHex(bytes: 16) }
    static func newDeviceID() throws -> String { try randomHex(bytes: 8) }

    static func isVaultID(_ text: String) -> Bool { isHex(text, length: 32) }
    static func isDeviceID(_ text: String) -> Bool { isHex(text, length: 16) }

    private static func sequenceName(_ text: String) -> (String, Int64)? {
        guard text.count == sequenceDigits + 2, text.hasPrefix("b-") || text.hasPrefix("s-"),
              text.dropFirst(2).allSatisfy({ $0.isASCII && $0.isNumber }),
              let sequence = Int64(text.dropFirst(2)), sequence >= 1 else { return nil }
        return (String(text.prefix(1)), sequence)
    }

    private static func padded(_ sequence: Int64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, sequenceDigits - digits.count)) + digits
    }

    private static func isHex(_ text: String, length: Int) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func randomHex(bytes: Int) throws -> String {
        try SecretBytes.random(count: bytes).unprotectedData().map { String(format: "%02x", $0) }.joined()
    }
}
