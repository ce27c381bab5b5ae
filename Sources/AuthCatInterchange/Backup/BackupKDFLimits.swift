import AuthCatCore
import AuthCatEssentials

/// The Argon2id limits a backup header may ask for. A header is read before
/// it is authenticated, so a hostile file could otherwise ask for terabytes.
public enum BackupKDFLimits {
    /// 16 passes; libsodium's strongest preset uses 4.
    public static let maximumOpsLimit: UInt64 = 16
    /// 4 GiB; libsodium's strongest preset uses 1 GiB.
    public static let maximumMemLimit: UInt64 = 4 << 30

    public static func check(_ kdf: KDFParameters) throws {
        guard kdf.algorithm == KDFParameters.algorithmName else {
            throw BackupError.unsupportedKeyDerivation("unknown algorithm")
        }
        guard kdf.opsLimit >= 1, kdf.opsLimit <= maximumOpsLimit else {
            throw BackupError.unsupportedKeyDerivation("\(kdf.opsLimit) passes is outside 1 to \(maximumOpsLimit)")
        }
        guard kdf.memLimit >= 8192, kdf.memLimit <= maximumMemLimit else {
            throw BackupError.unsupportedKeyDerivation("a memory limit of \(kdf.memLimit) bytes is outside 8 KiB to 4 GiB")
        }
    }
}
