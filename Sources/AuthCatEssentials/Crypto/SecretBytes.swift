#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Key material or a secret, held in memory that is locked and zeroed when released.
///
/// The bytes live in `sodium_malloc`ed memory: its own pages, locked with
/// `mlock` so they are never swapped out, between guard pages that stop an
/// overrun, and left out of core dumps (`madvise(MADV_DONTDUMP)`). When the
/// kernel refuses the lock (a low `RLIMIT_MEMLOCK`), libsodium keeps the memory
/// unlocked and carries on. Should `sodium_malloc` itself fail (no address
/// space left, or too many mappings: each allocation takes a few), the bytes
/// go in ordinary memory instead, still zeroed on release: a secret is never
/// refused for want of locked memory. `ProcessHardening` keeps the whole
/// process out of core dumps in any case.
///
/// Copying a `SecretBytes` copies the reference, not the bytes; the bytes are
/// wiped in `deinit`. Equality is constant-time.
///
/// `@unchecked` because it owns raw memory, which the compiler cannot see
/// into. Sharing it is safe: the bytes are written only by whoever is making
/// it (`withUnsafeMutableBytes` is internal, used on a fresh instance before
/// it is returned) and only read after that. A lock would cost every code
/// the quick front prints, and a `[UInt8]` would leave unwiped copies.
public final class SecretBytes: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer
    /// Whether `storage` came from `sodium_malloc` (and goes back with `sodium_free`).
    private let guarded: Bool

    /// Zero-filled secret storage of `count` bytes. Empty storage holds
    /// nothing to protect, and takes ordinary memory: the plaintext of a key
    /// check (`VaultKeyCheck`) is empty, and guarded memory costs ten system
    /// calls and three pages (docs/PERFORMANCE.md).
    public init(count: Int) {
        let size = max(count, 1)
        if count > 0, let base = Sodium.allocateGuarded(size) {
            storage = UnsafeMutableRawBufferPointer(start: base, count: size)
            guarded = true
        } else {
            storage = .allocate(byteCount: size, alignment: 16)
            guarded = false
        }
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        self.count = count
    }

    /// Copies `bytes`; the caller stays responsible for wiping its own copy.
    public convenience init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.init(count: bytes.count)
        _ = storage.initializeMemory(as: UInt8.self, from: bytes)
    }

    /// Copies the UTF-8 bytes of `text`. Only for tests and text that is already
    /// in a `String` for other reasons: the `String` cannot be wiped.
    public convenience init(utf8 text: String) {
        self.init(Array(text.utf8))
    }

    /// `count` bytes from libsodium's CSPRNG.
    public static func random(count: Int) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        let secret = SecretBytes(count: count)
        secret.withUnsafeMutableBytes(Sodium.randomBytes)
        return secret
    }

    /// Reads a secret straight into locked memory: `fill` writes at most
    /// `capacity` bytes into the buffer it is given and returns how many it
    /// wrote; the result holds those bytes. The larger buffer is wiped when
    /// this returns, so no copy of the secret is left anywhere else.
    public static func reading(
        capacity: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Int
    ) rethrows -> SecretBytes {
        let buffer = SecretBytes(count: capacity)
        let length = try buffer.withUnsafeMutableBytes(fill)
        precondition(length >= 0 && length <= capacity, "fill reported more bytes than it was given")
        return buffer.prefix(length)
    }

    /// The first `length` bytes (at most `count`), in a new `SecretBytes`.
    public func prefix(_ length: Int) -> SecretBytes {
        slice(0..<max(0, length))
    }

    /// The bytes in `range` (clamped to `0..<count`), in a new `SecretBytes`.
    public func slice(_ range: Range<Int>) -> SecretBytes {
        withUnsafeBytes { SecretBytes($0[range.clamped(to: 0..<count)]) }
    }

    deinit {
        // `init` allocates at least one byte, so the base address exists.
        if guarded {
            // sodium_free wipes the bytes before it unlocks and unmaps them.
            Sodium.freeGuarded(storage.baseAddress!)
        } else {
            Sodium.wipe(storage)
            storage.deallocate()
        }
    }

    /// The number of secret bytes.
    public let count: Int

    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    func withUnsafeMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeMutableRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// A copy in an ordinary `Data`, for APIs that need one; prefer keeping `SecretBytes`.
    public func unprotectedData() -> Data {
        withUnsafeBytes { Data($0) }
    }
}

extension SecretBytes: Equatable {
    /// Constant-time comparison, so timing reveals nothing of the contents.
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        lhs.withUnsafeBytes { l in rhs.withUnsafeBytes { r in Sodium.constantTimeEqual(l, r) } }
    }
}
