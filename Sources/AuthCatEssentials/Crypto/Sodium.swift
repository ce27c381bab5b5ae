internal import CSodium

/// libsodium behind one wrapper, as `Nettle` keeps Nettle: the one
/// file of AuthCatEssentials that imports it. The types that use it (`AEAD`,
/// `SecretStream`, `KDFParameters`, `Scrypt`, `SubkeyDerivation`,
/// `SecretBytes`, Yandex codes, `VaultKeyring`'s wiping) call these functions
/// on buffers they own; every return code is checked here and thrown as a
/// `CryptoError`, never turned into a value.
///
/// Buffers are passed as raw buffer pointers whose sizes the caller checked
/// (a key of `AEAD.keySize` bytes, an output of the length asked for). An
/// empty buffer (a message, associated data) has no address; libsodium is
/// then given `nothing`, which it never touches with a length of zero.
enum Sodium {
    /// `sodium_init` is idempotent and thread-safe; it fails only when the
    /// system cannot provide randomness, in which case no key could be made safely.
    static let initialized: Bool = sodium_init() >= 0

    static func ensureInitialized() throws {
        guard initialized else {
            throw CryptoError.operationFailed("libsodium could not initialise (no system randomness)")
        }
    }

    // MARK: Memory

    /// `size` bytes of guarded memory (`sodium_malloc`: its own locked pages
    /// between guard pages), or nil when libsodium is not initialised or
    /// cannot allocate.
    static func allocateGuarded(_ size: Int) -> UnsafeMutableRawPointer? {
        guard initialized else { return nil }
        return sodium_malloc(size)
    }

    /// Wipes and releases memory from `allocateGuarded`.
    static func freeGuarded(_ pointer: UnsafeMutableRawPointer) {
        sodium_free(pointer)
    }

    /// Overwrites `bytes` with zeros in a way the compiler cannot leave out.
    static func wipe(_ bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        sodium_memzero(base, bytes.count)
    }

    /// Wipes a plain array that held a secret for a moment.
    static func wipe(_ array: inout [UInt8]) {
        array.withUnsafeMutableBytes { wipe($0) }
    }

    /// Whether two buffers of equal length hold the same bytes, in time that
    /// depends on the length only.
    static func constantTimeEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let left = a.baseAddress, let right = b.baseAddress else { return true }
        return sodium_memcmp(left, right, a.count) == 0
    }

    /// Fills `bytes` from libsodium's CSPRNG.
    static func randomBytes(_ bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        randombytes_buf(base, bytes.count)
    }

    // MARK: XChaCha20-Poly1305 (AEAD)

    static let aeadKeySize = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    static let aeadNonceSize = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let aeadTagSize = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    /// Encrypts `message` into `ciphertext` (`message.count + aeadTagSize`
    /// bytes) under `key` and `nonce`.
    static func aeadEncrypt(
        into ciphertext: UnsafeMutableRawBufferPointer, message: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer
    ) throws {
        let status = crypto_aead_xchacha20poly1305_ietf_encrypt(
            bytes(ciphertext), nil, bytes(message), UInt64(message.count), bytes(associatedData),
            UInt64(associatedData.count), nil, bytes(nonce), bytes(key))
        guard status == 0 else { throw CryptoError.operationFailed("xchacha20poly1305 encryption") }
    }

    /// Decrypts `ciphertext` (message and tag) into `message`; throws
    /// `CryptoError.authenticationFailed` when anything is wrong.
    static func aeadDecrypt(
        into message: UnsafeMutableRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer
    ) throws {
        let status = crypto_aead_xchacha20poly1305_ietf_decrypt(
            bytes(message), nil, nil, bytes(ciphertext), UInt64(ciphertext.count), bytes(associatedData),
            UInt64(associatedData.count), bytes(nonce), bytes(key))
        guard status == 0 else { throw CryptoError.authenticationFailed }
    }

    // MARK: secretstream (XChaCha20-Poly1305 in chunks)

    static let streamKeySize = crypto_secretstream_xchacha20poly1305_keybytes()
    static let streamHeaderSize = crypto_secretstream_xchacha20poly1305_headerbytes()
    static let streamOverhead = crypto_secretstream_xchacha20poly1305_abytes()
    static let streamStateSize = crypto_secretstream_xchacha20poly1305_statebytes()
    static let streamStateAlignment = MemoryLayout<crypto_secretstream_xchacha20poly1305_state>.alignment
    static let streamMessageTag = crypto_secretstream_xchacha20poly1305_tag_message()
    static let streamFinalTag = crypto_secretstream_xchacha20poly1305_tag_final()

    /// Starts an encrypting stream in `state` (`streamStateSize` bytes, aligned
    /// to `streamStateAlignment`),
    /// writing its random header into `header`.
    static func streamInitPush(
        state: UnsafeMutableRawBufferPointer, header: UnsafeMutableRawBufferPointer, key: UnsafeRawBufferPointer
    ) throws {
        let status = crypto_secretstream_xchacha20poly1305_init_push(streamState(state), bytes(header), bytes(key))
        guard status == 0 else { throw CryptoError.operationFailed("secretstream initialisation") }
    }

    /// Starts a decrypting stream in `state` from the writer's `header`; a
    /// header libsodium cannot use is bad input like any other.
    static func streamInitPull(
        state: UnsafeMutableRawBufferPointer, header: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer
    ) throws {
        let status = crypto_secretstream_xchacha20poly1305_init_pull(streamState(state), bytes(header), bytes(key))
        guard status == 0 else { throw CryptoError.authenticationFailed }
    }

    /// Encrypts the next chunk into `ciphertext` (`message.count + streamOverhead` bytes).
    static func streamPush(
        state: UnsafeMutableRawBufferPointer, into ciphertext: UnsafeMutableRawBufferPointer,
        message: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer, tag: UInt8
    ) throws {
        let status = crypto_secretstream_xchacha20poly1305_push(
            streamState(state), bytes(ciphertext), nil, bytes(message), UInt64(message.count),
            bytes(associatedData), UInt64(associatedData.count), tag)
        guard status == 0 else { throw CryptoError.operationFailed("secretstream encryption") }
    }

    /// Decrypts the next chunk into `message` (`ciphertext.count - streamOverhead`
    /// bytes) and returns its tag; throws `CryptoError.authenticationFailed`
    /// for a wrong key or an altered, reordered or replayed chunk.
    static func streamPull(
        state: UnsafeMutableRawBufferPointer, into message: UnsafeMutableRawBufferPointer,
        ciphertext: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer
    ) throws -> UInt8 {
        var tag: UInt8 = 0
        let status = crypto_secretstream_xchacha20poly1305_pull(
            streamState(state), bytes(message), nil, &tag, bytes(ciphertext), UInt64(ciphertext.count),
            bytes(associatedData), UInt64(associatedData.count))
        guard status == 0 else { throw CryptoError.authenticationFailed }
        return tag
    }

    /// The state as libsodium's type. A state buffer has `streamStateSize`
    /// bytes, never zero, so it has an address.
    private static func streamState(
        _ state: UnsafeMutableRawBufferPointer
    ) -> UnsafeMutablePointer<crypto_secretstream_xchacha20poly1305_state> {
        state.baseAddress!.assumingMemoryBound(to: crypto_secretstream_xchacha20poly1305_state.self)
    }

    // MARK: Argon2id and scrypt

    static let argon2SaltSize = Int(crypto_pwhash_SALTBYTES)
    static let argon2MinimumOpsLimit = UInt64(crypto_pwhash_OPSLIMIT_MIN)
    static let argon2MinimumMemLimit = UInt64(crypto_pwhash_MEMLIMIT_MIN)
    static let argon2InteractiveLimits = (
        opsLimit: UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), memLimit: UInt64(crypto_pwhash_MEMLIMIT_INTERACTIVE)
    )
    static let argon2ModerateLimits = (
        opsLimit: UInt64(crypto_pwhash_OPSLIMIT_MODERATE), memLimit: UInt64(crypto_pwhash_MEMLIMIT_MODERATE)
    )

    /// Argon2id (`ARGON2ID13`) of `password` and `salt` into `key`.
    static func argon2id(
        into key: UnsafeMutableRawBufferPointer, password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
        opsLimit: UInt64, memLimit: UInt64
    ) throws {
        let status = crypto_pwhash(
            bytes(key), UInt64(key.count), characters(password),
            UInt64(password.count), bytes(salt), opsLimit, Int(memLimit), crypto_pwhash_ALG_ARGON2ID13)
        guard status == 0 else { throw CryptoError.operationFailed("argon2id key derivation (out of memory?)") }
    }

    /// scrypt (`crypto_pwhash_scryptsalsa208sha256_ll`) of `password` and `salt` into `key`.
    static func scrypt(
        into key: UnsafeMutableRawBufferPointer, password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
        n: UInt64, r: UInt32, p: UInt32
    ) throws {
        let status = crypto_pwhash_scryptsalsa208sha256_ll(
            bytes(password), password.count, bytes(salt), salt.count, n, r, p, bytes(key), key.count)
        guard status == 0 else { throw CryptoError.operationFailed("scrypt key derivation (out of memory?)") }
    }

    // MARK: Subkeys (crypto_kdf, BLAKE2b)

    static let kdfMasterKeySize = Int(crypto_kdf_KEYBYTES)
    static let kdfContextSize = Int(crypto_kdf_CONTEXTBYTES)
    static let kdfSubkeySizes = Int(crypto_kdf_BYTES_MIN)...Int(crypto_kdf_BYTES_MAX)

    /// Subkey `id` of `masterKey` for `context` (`kdfContextSize` bytes) into `subkey`.
    static func deriveSubkey(
        into subkey: UnsafeMutableRawBufferPointer, id: UInt64, context: UnsafeRawBufferPointer,
        masterKey: UnsafeRawBufferPointer
    ) throws {
        let status = crypto_kdf_derive_from_key(
            bytes(subkey), subkey.count, id, characters(context),
            bytes(masterKey))
        guard status == 0 else { throw CryptoError.operationFailed("crypto_kdf subkey derivation") }
    }

    // MARK: SHA-256 and HMAC-SHA-256

    static let sha256Size = Int(crypto_hash_sha256_BYTES)

    /// SHA-256 of the concatenated `parts` into `digest` (`sha256Size` bytes),
    /// the state wiped afterwards: the parts may be secrets.
    static func sha256(into digest: UnsafeMutableRawBufferPointer, parts: [UnsafeRawBufferPointer]) throws {
        var state = crypto_hash_sha256_state()
        defer { withUnsafeMutableBytes(of: &state) { wipe($0) } }
        guard crypto_hash_sha256_init(&state) == 0 else { throw CryptoError.operationFailed("sha256") }
        for part in parts {
            guard crypto_hash_sha256_update(&state, bytes(part), UInt64(part.count)) == 0 else {
                throw CryptoError.operationFailed("sha256")
            }
        }
        guard crypto_hash_sha256_final(&state, bytes(digest)) == 0 else { throw CryptoError.operationFailed("sha256") }
    }

    /// HMAC-SHA-256 of `message` under `key` (any length), the state wiped afterwards.
    static func hmacSHA256(key: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) throws -> [UInt8] {
        var state = crypto_auth_hmacsha256_state()
        defer { withUnsafeMutableBytes(of: &state) { wipe($0) } }
        var mac = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        guard crypto_auth_hmacsha256_init(&state, bytes(key), key.count) == 0,
            crypto_auth_hmacsha256_update(&state, bytes(message), UInt64(message.count)) == 0,
            crypto_auth_hmacsha256_final(&state, &mac) == 0
        else { throw CryptoError.operationFailed("hmac-sha256") }
        return mac
    }

    // MARK: Ed25519 signatures, X25519 sealed boxes, BLAKE2b (`PublicKeyCrypto`)

    static let signingPublicKeySize = Int(crypto_sign_PUBLICKEYBYTES)
    static let signingSecretKeySize = Int(crypto_sign_SECRETKEYBYTES)
    static let signatureSize = Int(crypto_sign_BYTES)
    static let boxPublicKeySize = Int(crypto_box_PUBLICKEYBYTES)
    static let boxSecretKeySize = Int(crypto_box_SECRETKEYBYTES)
    static let sealOverhead = Int(crypto_box_sealbytes())
    static let hashSize = Int(crypto_generichash_BYTES)
    static let hashKeySizes = Int(crypto_generichash_KEYBYTES_MIN)...Int(crypto_generichash_KEYBYTES_MAX)

    /// A fresh Ed25519 key pair into buffers of the two sizes above.
    static func signingKeyPair(
        publicKey: UnsafeMutableRawBufferPointer, secretKey: UnsafeMutableRawBufferPointer
    ) throws {
        guard crypto_sign_keypair(bytes(publicKey), bytes(secretKey)) == 0 else {
            throw CryptoError.operationFailed("ed25519 key generation")
        }
    }

    /// The public half that an Ed25519 secret key carries.
    static func signingPublicKey(
        into publicKey: UnsafeMutableRawBufferPointer, secretKey: UnsafeRawBufferPointer
    ) throws {
        guard crypto_sign_ed25519_sk_to_pk(bytes(publicKey), bytes(secretKey)) == 0 else {
            throw CryptoError.operationFailed("ed25519 public key extraction")
        }
    }

    /// A detached Ed25519 signature of `message`.
    static func sign(
        into signature: UnsafeMutableRawBufferPointer, message: UnsafeRawBufferPointer,
        secretKey: UnsafeRawBufferPointer
    ) throws {
        guard crypto_sign_detached(bytes(signature), nil, bytes(message), UInt64(message.count), bytes(secretKey)) == 0
        else { throw CryptoError.operationFailed("ed25519 signing") }
    }

    /// Whether `signature` is `publicKey`'s Ed25519 signature of `message`.
    static func isValidSignature(
        _ signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer, publicKey: UnsafeRawBufferPointer
    ) -> Bool {
        crypto_sign_verify_detached(bytes(signature), bytes(message), UInt64(message.count), bytes(publicKey)) == 0
    }

    /// A fresh X25519 key pair into buffers of the two box sizes above.
    static func boxKeyPair(publicKey: UnsafeMutableRawBufferPointer, secretKey: UnsafeMutableRawBufferPointer) throws {
        guard crypto_box_keypair(bytes(publicKey), bytes(secretKey)) == 0 else {
            throw CryptoError.operationFailed("x25519 key generation")
        }
    }

    /// The public half of an X25519 secret key.
    static func boxPublicKey(into publicKey: UnsafeMutableRawBufferPointer, secretKey: UnsafeRawBufferPointer) throws {
        guard crypto_scalarmult_base(bytes(publicKey), bytes(secretKey)) == 0 else {
            throw CryptoError.operationFailed("x25519 public key derivation")
        }
    }

    /// `message` sealed anonymously to `publicKey`, into `message.count + sealOverhead` bytes.
    static func seal(
        into box: UnsafeMutableRawBufferPointer, message: UnsafeRawBufferPointer, publicKey: UnsafeRawBufferPointer
    ) throws {
        guard crypto_box_seal(bytes(box), bytes(message), UInt64(message.count), bytes(publicKey)) == 0 else {
            throw CryptoError.operationFailed("sealed box")
        }
    }

    /// Opens a sealed box into `box.count - sealOverhead` bytes; throws
    /// `CryptoError.authenticationFailed` when it was not sealed to this key pair or was changed.
    static func openSealed(
        into message: UnsafeMutableRawBufferPointer, box: UnsafeRawBufferPointer, publicKey: UnsafeRawBufferPointer,
        secretKey: UnsafeRawBufferPointer
    ) throws {
        guard
            crypto_box_seal_open(bytes(message), bytes(box), UInt64(box.count), bytes(publicKey), bytes(secretKey)) == 0
        else { throw CryptoError.authenticationFailed }
    }

    /// BLAKE2b of `message` into `digest`, keyed when `key` is given (of `hashKeySizes`).
    static func genericHash(
        into digest: UnsafeMutableRawBufferPointer, message: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer?
    ) throws {
        let keyBytes = key.map { bytes($0) }
        guard
            crypto_generichash(
                bytes(digest), digest.count, bytes(message), UInt64(message.count), keyBytes, key?.count ?? 0) == 0
        else { throw CryptoError.operationFailed("blake2b hash") }
    }

    // MARK: Pointers

    /// A buffer's bytes as libsodium's `unsigned char *` takes them. libsodium
    /// declares most of its pointers non-null even where the length may be
    /// zero; an empty buffer has no address, so it gets `nothing`, which
    /// libsodium never reads or writes with a length of zero.
    private static func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(nothing)
    }

    private static func bytes(_ buffer: UnsafeMutableRawBufferPointer) -> UnsafeMutablePointer<UInt8> {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? nothing
    }

    private static func characters(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<CChar> {
        UnsafeRawPointer(bytes(buffer)).assumingMemoryBound(to: CChar.self)
    }

    /// The address given for an empty buffer: one byte, allocated once and
    /// never written, so it is safe to share between threads.
    nonisolated(unsafe) private static let nothing = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
}
