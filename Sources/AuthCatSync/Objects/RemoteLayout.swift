import AuthCatCore
import AuthCatEssentials
import Foundation

/// The names of the sync engine's objects on a remote (docs/FORMAT.md §5.1).
///
/// ```
/// authcat-<vault>/manifest                 the manifest: key parameters and wrapped master keys
/// authcat-<vault>/<device>/b-<10 digits>   a device's change batch number n
/// authcat-<vault>/<device>/s-<10 digits>   a device's snapshot covering its batches up to n
/// authcat-<vault>/disabled-<10 digits>     "sync turned off everywhere" marker, generation n
/// authcat-<vault>/disabled                 the same, as written before generations (generation 1)
/// authcat-<vault>.deleted                  "remote data deleted" marker, outside the vault's folder
/// ```
/// Vault ids are 32 lowercase hex digits, device ids 16; both random. Names
/// carry everything a sync with nothing new needs to know, so it is one listing.
enum RemoteLayout {
    static let prefix = "authcat-"
    static let sequenceDigits = 10
    /// The highest sequence or generation number a name can hold: names are
    /// fixed-width, and readers take exactly `sequenceDigits` digits.
    static let maximumNumber: Int64 = 9_999_999_999

    /// `number`, if a name can hold it; a number past `maximumNumber` is an
    /// error, never a longer name that no reader would parse.
    static func checkedNumber(_ number: Int64) throws -> Int64 {
        guard (1...maximumNumber).contains(number) else {
            throw SyncError(
                .other,
                "the number \(number) does not fit in a remote object name (at most "
                    + "\(sequenceDigits) digits); nothing was written")
        }
        return number
    }

    enum Name: Equatable {
        case manifest(vault: String)
        case batch(vault: String, device: String, sequence: Int64)
        case snapshot(vault: String, device: String, sequence: Int64)
        case disabledMarker(vault: String, generation: Int64)
        case deletedMarker(vault: String)
    }

    static func folder(_ vault: String) -> String { "\(prefix)\(vault)" }
    static func manifest(_ vault: String) -> String { "\(folder(vault))/manifest" }
    /// The "disabled everywhere" marker of generation `generation` (1, 2, 3…):
    /// the number is in the name, so a sync learns from its one listing whether
    /// a marker is newer than the one this device already knows.
    static func disabledMarker(_ vault: String, generation: Int64) -> String {
        "\(folder(vault))/\(disabledStem)-\(padded(generation))"
    }
    /// The name earlier versions used for the one "disabled everywhere" marker; read as generation 1.
    static func legacyDisabledMarker(_ vault: String) -> String { "\(folder(vault))/\(disabledStem)" }
    private static let disabledStem = "disabled"
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
        case .disabledMarker(let vault, let generation): disabledMarker(vault, generation: generation)
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
            case disabledStem: return .disabledMarker(vault: vault, generation: 1)
            default: return disabledGeneration(parts[1]).map { .disabledMarker(vault: vault, generation: $0) }
            }
        }
        guard parts.count == 3, isDeviceID(parts[1]), let (kind, sequence) = sequenceName(parts[2]) else { return nil }
        return kind == "b"
            ? .batch(vault: vault, device: parts[1], sequence: sequence)
            : .snapshot(vault: vault, device: parts[1], sequence: sequence)
    }

    static func newVaultID() throws -> String { try randomHex(bytes: 16) }
    static func newDeviceID() throws -> String { try randomHex(bytes: 8) }

    static func isVaultID(_ text: String) -> Bool { isHex(text, length: 32) }
    static func isDeviceID(_ text: String) -> Bool { isHex(text, length: 16) }

    private static func disabledGeneration(_ text: String) -> Int64? {
        let prefix = disabledStem + "-"
        guard text.hasPrefix(prefix) else { return nil }
        return number(text.dropFirst(prefix.count))
    }

    /// A zero-padded sequence or generation number, at least 1: exactly
    /// `sequenceDigits` ASCII digits, nothing more or less.
    static func number(_ digits: Substring) -> Int64? {
        guard digits.utf8.count == sequenceDigits, digits.utf8.allSatisfy({ (48...57).contains($0) }),
            let value = Int64(digits), value >= 1
        else { return nil }
        return value
    }

    private static func sequenceName(_ text: String) -> (String, Int64)? {
        guard text.hasPrefix("b-") || text.hasPrefix("s-"), let sequence = number(text.dropFirst(2)) else { return nil }
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
