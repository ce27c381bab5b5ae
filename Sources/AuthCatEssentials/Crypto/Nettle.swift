internal import CNettle

/// Nettle behind one wrapper: the one file of AuthCatEssentials that imports
/// it. libsodium (`Sodium`) does authcat's own cryptography; Nettle does the
/// algorithms other people chose and libsodium leaves out or offers only on
/// some processors: the HMACs of one-time codes (SHA-1 is TOTP's default,
/// MD5 mOTP's hash), SHA-256 where a protocol asks for it (S3's signatures,
/// the chain hash of a remote object), and AES-256-GCM, which Aegis seals its
/// vaults with; PBKDF2, HKDF and AES-256-CBC, which other apps' encrypted
/// exports use. The types that use it are `OTPGenerator`, `SHA256`, `AESGCM`,
/// `AESCBC` and `PBKDF2`.
///
/// Nettle's functions return nothing to check: given buffers of the sizes
/// checked here, they cannot fail. Every context that held key material is
/// wiped before it is released. An empty buffer has no address; Nettle is
/// then given `nothing`, which it never reads with a length of zero.
enum Nettle {
    static let sha256Size = Int(SHA256_DIGEST_SIZE)
    static let gcmTagSize = Int(GCM_DIGEST_SIZE)
    static let aes256KeySize = Int(AES256_KEY_SIZE)

    // MARK: HMAC

    /// The hash functions an HMAC here can use.
    enum Hash {
        case md5, sha1, sha256, sha512
    }

    /// HMAC of `message` under `key` (any length) with `hash`.
    static func hmac(_ hash: Hash, key: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> [UInt8] {
        switch hash {
        case .md5:
            hmac(
                hmac_md5_ctx(), size: Int(MD5_DIGEST_SIZE), key: key, message: message,
                nettle_hmac_md5_set_key, nettle_hmac_md5_update, nettle_hmac_md5_digest)
        case .sha1:
            hmac(
                hmac_sha1_ctx(), size: Int(SHA1_DIGEST_SIZE), key: key, message: message,
                nettle_hmac_sha1_set_key, nettle_hmac_sha1_update, nettle_hmac_sha1_digest)
        case .sha256:
            hmac(
                hmac_sha256_ctx(), size: Int(SHA256_DIGEST_SIZE), key: key, message: message,
                nettle_hmac_sha256_set_key, nettle_hmac_sha256_update, nettle_hmac_sha256_digest)
        case .sha512:
            hmac(
                hmac_sha512_ctx(), size: Int(SHA512_DIGEST_SIZE), key: key, message: message,
                nettle_hmac_sha512_set_key, nettle_hmac_sha512_update, nettle_hmac_sha512_digest)
        }
    }

    /// One HMAC through Nettle's three calls for a hash, its context wiped
    /// afterwards: the context holds the key's inner and outer hash states.
    private static func hmac<Context>(
        _ context: Context, size: Int, key: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer,
        _ setKey: (UnsafeMutablePointer<Context>, Int, UnsafePointer<UInt8>) -> Void,
        _ update: (UnsafeMutablePointer<Context>, Int, UnsafePointer<UInt8>) -> Void,
        _ digest: (UnsafeMutablePointer<Context>, Int, UnsafeMutablePointer<UInt8>) -> Void
    ) -> [UInt8] {
        var context = context
        defer { withUnsafeMutableBytes(of: &context) { Sodium.wipe($0) } }
        setKey(&context, key.count, bytes(key))
        update(&context, message.count, bytes(message))
        var mac = [UInt8](repeating: 0, count: size)
        mac.withUnsafeMutableBufferPointer { digest(&context, size, $0.baseAddress!) }
        return mac
    }

    // MARK: Hashes

    /// MD5 of `message` (mOTP's message holds the secret).
    static func md5(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        digest(
            md5_ctx(), size: Int(MD5_DIGEST_SIZE), of: message, nettle_md5_init, nettle_md5_update, nettle_md5_digest)
    }

    /// SHA-256 of `message`.
    static func sha256(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        digest(
            sha256_ctx(), size: sha256Size, of: message, nettle_sha256_init, nettle_sha256_update,
            nettle_sha256_digest)
    }

    /// One digest through Nettle's three calls for a hash, its state wiped
    /// afterwards like every other here: the message may hold a secret.
    private static func digest<Context>(
        _ context: Context, size: Int, of message: UnsafeRawBufferPointer,
        _ start: (UnsafeMutablePointer<Context>) -> Void,
        _ update: (UnsafeMutablePointer<Context>, Int, UnsafePointer<UInt8>) -> Void,
        _ finish: (UnsafeMutablePointer<Context>, Int, UnsafeMutablePointer<UInt8>) -> Void
    ) -> [UInt8] {
        var context = context
        defer { withUnsafeMutableBytes(of: &context) { Sodium.wipe($0) } }
        start(&context)
        update(&context, message.count, bytes(message))
        var digest = [UInt8](repeating: 0, count: size)
        digest.withUnsafeMutableBufferPointer { finish(&context, size, $0.baseAddress!) }
        return digest
    }

    // MARK: PBKDF2

    /// The HMACs PBKDF2 is offered with here.
    enum PBKDF2Hash {
        case sha1, sha256
    }

    /// PBKDF2 (RFC 8018) with HMAC-`hash`, filling `key`; `iterations` is at least 1.
    static func pbkdf2(
        _ hash: PBKDF2Hash, into key: UnsafeMutableRawBufferPointer, password: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer, iterations: UInt32
    ) {
        let derive = hash == .sha1 ? nettle_pbkdf2_hmac_sha1 : nettle_pbkdf2_hmac_sha256
        derive(password.count, bytes(password), iterations, salt.count, bytes(salt), key.count, bytes(key))
    }

    // MARK: HKDF

    /// HKDF-Expand (RFC 5869) with HMAC-SHA-256 of the pseudorandom key
    /// `key` and `info`, filling `output` (at most 255 · 32 bytes).
    static func hkdfSHA256Expand(
        into output: UnsafeMutableRawBufferPointer, key: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer
    ) {
        var context = hmac_sha256_ctx()
        defer { withUnsafeMutableBytes(of: &context) { Sodium.wipe($0) } }
        nettle_hmac_sha256_set_key(&context, key.count, bytes(key))
        let update: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafePointer<UInt8>?) -> Void = {
            nettle_hmac_sha256_update($0?.assumingMemoryBound(to: hmac_sha256_ctx.self), $1, $2)
        }
        let digest: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<UInt8>?) -> Void = {
            nettle_hmac_sha256_digest($0?.assumingMemoryBound(to: hmac_sha256_ctx.self), $1, $2)
        }
        nettle_hkdf_expand(&context, update, digest, sha256Size, info.count, bytes(info), output.count, bytes(output))
    }

    // MARK: AES-256-CBC

    static let aesBlockSize = Int(AES_BLOCK_SIZE)

    /// Which way `aes256CBC` runs.
    enum Direction {
        case encrypt, decrypt
    }

    /// Encrypts or decrypts whole blocks of `input` into `output` (as many
    /// bytes) under `key` (`aes256KeySize`) and `iv` (`aesBlockSize`).
    static func aes256CBC(
        _ direction: Direction, into output: UnsafeMutableRawBufferPointer, input: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer
    ) {
        typealias Cipher =
            @convention(c) (UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?)
            -> Void
        var context = aes256_ctx()
        defer { withUnsafeMutableBytes(of: &context) { Sodium.wipe($0) } }
        let cipher: Cipher
        switch direction {
        case .encrypt:
            nettle_aes256_set_encrypt_key(&context, bytes(key))
            cipher = { nettle_aes256_encrypt($0?.assumingMemoryBound(to: aes256_ctx.self), $1, $2, $3) }
        case .decrypt:
            nettle_aes256_set_decrypt_key(&context, bytes(key))
            cipher = { nettle_aes256_decrypt($0?.assumingMemoryBound(to: aes256_ctx.self), $1, $2, $3) }
        }
        var chain = Array(iv.bindMemory(to: UInt8.self))
        let run = direction == .encrypt ? nettle_cbc_encrypt : nettle_cbc_decrypt
        run(&context, cipher, aesBlockSize, &chain, input.count, bytes(output), bytes(input))
    }

    // MARK: AES-256-GCM

    /// Encrypts `plaintext` into `ciphertext` (as many bytes) and writes the
    /// tag (`gcmTagSize` bytes). `key` has `aes256KeySize` bytes; `nonce` is not empty.
    static func aes256GCMEncrypt(
        into ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer,
        plaintext: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer
    ) {
        var context = gcm_aes256_ctx()
        defer { withUnsafeMutableBytes(of: &context) { Sodium.wipe($0) } }
        nettle_gcm_aes256_set_key(&context, bytes(key))
        nettle_gcm_aes256_set_iv(&context, nonce.count, bytes(nonce))
        nettle_gcm_aes256_encrypt(&context, plaintext.count, bytes(ciphertext), bytes(plaintext))
        nettle_gcm_aes256_digest(&context, gcmTagSize, bytes(tag))
    }

    /// Decrypts `ciphertext` into `plaintext` (as many bytes) and checks
    /// `tag` in constant time; false, with `plaintext` wiped, when it does not match.
    static func aes256GCMDecrypt(
        into plaintext: UnsafeMutableRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer
    ) -> Bool {
        var context = gcm_aes256_ctx()
        defer { withUnsafeMutableBytes(of: &context) { Sodium.wipe($0) } }
        nettle_gcm_aes256_set_key(&context, bytes(key))
        nettle_gcm_aes256_set_iv(&context, nonce.count, bytes(nonce))
        nettle_gcm_aes256_decrypt(&context, ciphertext.count, bytes(plaintext), bytes(ciphertext))
        var computed = [UInt8](repeating: 0, count: gcmTagSize)
        nettle_gcm_aes256_digest(&context, gcmTagSize, &computed)
        guard nettle_memeql_sec(computed, bytes(tag), gcmTagSize) != 0 else {
            Sodium.wipe(plaintext)
            return false
        }
        return true
    }

    // MARK: Buffers

    private static func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(nothing)
    }

    private static func bytes(_ buffer: UnsafeMutableRawBufferPointer) -> UnsafeMutablePointer<UInt8> {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? nothing
    }

    /// The address given for an empty buffer; never read or written.
    nonisolated(unsafe) private static let nothing = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
}
