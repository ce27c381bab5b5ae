import AuthCatEssentials
internal import CArgon2
import Foundation

/// Argon2id (RFC 9106) through libargon2, the one file that imports it: for
/// other apps' files that ask for more than one lane, which libsodium's
/// `crypto_pwhash` cannot give (Bitwarden's exports). authcat's own keys use
/// libsodium (`KDFParameters`).
enum Argon2id {
    /// What a file asks for: memory in KiB, passes over it, and lanes.
    struct Cost: Equatable {
        var memoryKiB: UInt64
        var passes: UInt64
        var lanes: UInt64
    }

    /// The most memory a file may ask for: 1 GiB, as for every Argon2id here.
    static let maximumMemoryKiB = KDFParameters.maximumMemLimit >> 10
    /// The most work, memory × passes: 16 passes over 1 GiB, the most
    /// `KDFParameters` allows. Other apps trade one for the other: Ente
    /// halves the memory and doubles the passes until a phone can derive
    /// (1 GiB × 4 … 64 MiB × 64), so the passes alone are not bounded.
    static let maximumWorkKiB = maximumMemoryKiB * KDFParameters.maximumOpsLimit
    /// The most lanes: 16, Bitwarden's own bound. Lanes share the memory;
    /// more lanes cost threads, not memory.
    static let maximumLanes: UInt64 = 16
    /// The shortest salt libargon2 takes (`ARGON2_MIN_SALT_LENGTH`, a macro Swift cannot import).
    static let minimumSaltSize = 8

    /// Checks `cost` before any memory is taken or a password asked for.
    /// - Throws: `KeyDerivationLimitError` above the bounds;
    ///   `CryptoError.invalidInput` for zero passes or lanes, or less than
    ///   the 8 KiB per lane Argon2 needs.
    static func check(_ cost: Cost) throws {
        guard cost.memoryKiB <= maximumMemoryKiB else {
            let bytes = cost.memoryKiB.multipliedReportingOverflow(by: 1024)
            throw KeyDerivationLimitError(
                demand: .memory(bytes.overflow ? .max : bytes.partialValue, allowed: maximumMemoryKiB << 10))
        }
        guard (1...maximumLanes).contains(cost.lanes) else {
            throw CryptoError.invalidInput("Argon2id needs 1 to \(maximumLanes) lanes")
        }
        guard cost.passes >= 1, cost.memoryKiB >= 8 * cost.lanes else {
            throw CryptoError.invalidInput("Argon2id needs a pass and 8 KiB of memory per lane")
        }
        // Memory is at least 8 KiB and at most 2^20 KiB here, so the division is exact enough and safe.
        guard cost.passes <= maximumWorkKiB / cost.memoryKiB else {
            throw KeyDerivationLimitError(demand: .passes(cost.passes, allowed: maximumWorkKiB / cost.memoryKiB))
        }
    }

    /// Derives `length` bytes from `password` and `salt` at `cost`, once `check` passes.
    static func deriveKey(password: SecretBytes, salt: Data, cost: Cost, length: Int = 32) throws -> SecretBytes {
        try check(cost)
        guard salt.count >= minimumSaltSize, length >= 4 else {
            throw CryptoError.invalidInput("an Argon2id salt has at least \(minimumSaltSize) bytes")
        }
        return try SecretBytes.reading(capacity: length) { output in
            let status = password.withUnsafeBytes { password in
                salt.withUnsafeBytes { salt in
                    argon2id_hash_raw(
                        UInt32(cost.passes), UInt32(cost.memoryKiB), UInt32(cost.lanes), password.baseAddress,
                        password.count, salt.baseAddress, salt.count, output.baseAddress, output.count)
                }
            }
            guard status == ARGON2_OK.rawValue else {
                throw CryptoError.invalidInput("Argon2id failed: \(String(cString: argon2_error_message(status)))")
            }
            return output.count
        }
    }
}
