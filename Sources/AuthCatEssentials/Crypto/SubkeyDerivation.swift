/// Subkeys derived from one master key with libsodium's `crypto_kdf`
/// (BLAKE2b keyed with the master key, personalised by an 8-byte context).
///
/// Different (context, id) pairs give independent keys, so one master key can
/// safely serve several purposes. Contexts are documented where they are used.
public enum SubkeyDerivation {
    public static let masterKeySize = Sodium.kdfMasterKeySize
    public static let contextSize = Sodium.kdfContextSize

    /// The subkey number `id` of `masterKey` for `context` (exactly 8 ASCII bytes).
    public static func derive(
        from masterKey: SecretBytes, id: UInt64, context: String,
        length: Int = AEAD.keySize
    ) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        guard masterKey.count == masterKeySize else {
            throw CryptoError.invalidInput("master key must be \(masterKeySize) bytes")
        }
        let contextBytes = Array(context.utf8)
        guard contextBytes.count == contextSize else {
            throw CryptoError.invalidInput("key context must be \(contextSize) bytes")
        }
        guard Sodium.kdfSubkeySizes.contains(length) else {
            throw CryptoError.invalidInput("subkey length out of range")
        }
        let subkey = SecretBytes(count: length)
        try subkey.withUnsafeMutableBytes { out in
            try masterKey.withUnsafeBytes { master in
                try contextBytes.withUnsafeBytes { ctx in
                    try Sodium.deriveSubkey(into: out, id: id, context: ctx, masterKey: master)
                }
            }
        }
        return subkey
    }
}
