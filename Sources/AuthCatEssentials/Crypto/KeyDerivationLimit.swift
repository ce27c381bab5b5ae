/// Key derivation parameters that ask for more memory or work than authcat
/// allows. Such parameters come from a file or a remote that someone else may
/// have written (an Aegis vault, a backup, the sync manifest), and are read
/// before anything is authenticated, so the bound is checked before any memory
/// is taken: otherwise one file could make authcat use gigabytes or run for hours.
public struct KeyDerivationLimitError: UserFacingError, Equatable {
    /// What the parameters ask for, beyond the allowance.
    public enum Demand: Equatable, Sendable {
        /// Bytes of memory.
        case memory(UInt64, allowed: UInt64)
        /// Argon2id passes over the memory.
        case passes(UInt64, allowed: UInt64)
        /// scrypt's work, N·r·p (each unit one BlockMix of 128·r bytes).
        case scryptWork(UInt64, allowed: UInt64)
    }

    /// Whose parameters they are, as the user knows it: "the Aegis file".
    public var source: String
    public var demand: Demand

    public init(source: String = "the file", demand: Demand) {
        self.source = source
        self.demand = demand
    }

    /// The same error, naming `source` as what asked.
    public func from(_ source: String) -> KeyDerivationLimitError {
        KeyDerivationLimitError(source: source, demand: demand)
    }

    public var description: String {
        let (asked, allowed): (String, String) =
            switch demand {
            case .memory(let bytes, let allowed): ("\(Self.size(bytes)) of memory", Self.size(allowed))
            case .passes(let passes, let allowed): ("\(passes) passes", "\(allowed)")
            case .scryptWork(let work, let allowed): ("scrypt work N·r·p of \(work)", "\(allowed)")
            }
        return "\(source) asks for \(asked) for its key derivation; authcat allows at most \(allowed)"
    }

    /// "2.0 GiB", "1 GiB", "256 MiB", "8192 bytes": exact where it is a whole number of units.
    static func size(_ bytes: UInt64) -> String {
        for (unit, shift) in [("GiB", UInt64(30)), ("MiB", 20)] where bytes >= 1 << shift {
            if bytes % (1 << shift) == 0 { return "\(bytes >> shift) \(unit)" }
            let tenths = bytes / ((1 << shift) / 10)
            return "\(tenths / 10).\(tenths % 10) \(unit)"
        }
        return "\(bytes) bytes"
    }
}
