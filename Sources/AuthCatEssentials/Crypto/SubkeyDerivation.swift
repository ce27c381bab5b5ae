import CSodium

/// Subkeys derived from one master key with libsodium's `crypto_kdf`
/// (BLAKE2b keyed with the master key, personalised by an 8-byte context).
///
/// Different (context, id) pairs give independent keys, so one master key can
/// safely serve several purposes. Contexts are documented where they are used.
public enum SubkeyDerivation {
    public static let masterKeySize = Int(crypto_kdf_KEYBYTES)
    public static let contextSize = Int(crypto_kdf_CONTEXTBYTES)

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
        guard length >= Int(crypto_kdf_BYTES_MIN), length <= Int(crypto_kdf_BYTES_MAX) else {
            throw CryptoError.invalidInput("subkey length out of range")
        }
        let subkey = SecretBytes(count: length)
        // The subkey, master key and context were checked non-empty above, so their base addresses exist.
        let status = subkey.withUnsafeMutableBytes { out in
            masterKey.withUnsafeBytes { master in
                contextBytes.withUnsafeBufferPointer { ctx in
                    ctx.baseAddress!.withMemoryRebound(to: CChar.self, capacity: contextSize) { ctxChars in
                        crypto_kdf_derive_from_key(
                            out.baseAddress!.assumingMemoryBound(to: UInt8.self), length, id,
                            ctxChars, master.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    }
                }
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("crypto_kdf subkey derivation") }
        return subkey
    }
}
