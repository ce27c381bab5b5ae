#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// SHA-256 and HMAC-SHA-256 where a protocol or format names them: S3's
/// request signatures (SigV4), the chain hash of a remote object, the group
/// ids of an Aegis export. Keys derived from a secret stay `SecretBytes`.
public enum SHA256 {
    /// The digest's size in bytes.
    public static let size = Nettle.sha256Size

    /// The SHA-256 digest of `data`, which is no secret: neither `data` nor
    /// the digest is kept in wiped memory.
    public static func hash(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { Nettle.sha256($0) }
    }

    /// The SHA-256 digest of a secret, in wiped memory: old andOTP backups
    /// take it of the password as their key.
    public static func hash(_ secret: SecretBytes) -> SecretBytes {
        var digest = secret.withUnsafeBytes { Nettle.sha256($0) }
        defer { Sodium.wipe(&digest) }
        return SecretBytes(digest)
    }

    /// HMAC-SHA-256 of `message` under `key`, in wiped memory: the MAC of a
    /// secret key is itself a key in SigV4's chain of derived keys.
    public static func authenticationCode(for message: Data, key: SecretBytes) -> SecretBytes {
        var mac = key.withUnsafeBytes { key in
            message.withUnsafeBytes { Nettle.hmac(.sha256, key: key, message: $0) }
        }
        defer { Sodium.wipe(&mac) }
        return SecretBytes(mac)
    }

    /// HKDF-Expand (RFC 5869) with HMAC-SHA-256: `length` bytes (at most
    /// 8,160) from the pseudorandom key `key` and `info`. Bitwarden stretches
    /// a password's key into its encryption and MAC keys so.
    public static func expandKey(_ key: SecretBytes, info: Data, length: Int) throws -> SecretBytes {
        guard (1...255 * size).contains(length) else {
            throw CryptoError.invalidInput("HKDF-Expand gives 1 to \(255 * size) bytes")
        }
        let output = SecretBytes(count: length)
        output.withUnsafeMutableBytes { output in
            key.withUnsafeBytes { key in
                info.withUnsafeBytes { Nettle.hkdfSHA256Expand(into: output, key: key, info: $0) }
            }
        }
        return output
    }
}
