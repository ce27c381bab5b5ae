import CSodium
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Key material or a secret, held in memory that is zeroed when released.
///
/// Copying a `SecretBytes` copies the reference, not the bytes; the bytes are
/// wiped with `sodium_memzero` in `deinit`. Equality is constant-time.
///
/// `@unchecked` because it owns raw memory, which the compiler cannot see
/// into. Sharing it is safe: the bytes are written only by whoever is making
/// it (`withUnsafeMutableBytes` is internal, used on a fresh instance before
/// it is returned) and only read after that. A lock would cost every code
/// the quick front prints, and a `[UInt8]` would leave unwiped copies.
public final class SecretBytes: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer

    /// Zero-filled secret storage of `count` bytes.
    public init(count: Int) {
        storage = .allocate(byteCount: max(count, 1), alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        self.count = count
    }

    /// Copies `bytes`; the caller stays responsible for wiping its own copy.
    public convenience init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.init(count: bytes.count)
        _ = storage.initializeMemory(as: UInt8.self, from: bytes)
    }

    /// Copies the UTF-8 bytes of `text` (a passphrase, say).
    public convenience init(utf8 text: String) {
        self.init(Array(text.utf8))
    }

    /// `count` bytes from libsodium's CSPRNG.
    public static func random(count: Int) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        let secret = SecretBytes(count: count)
        secret.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
        return secret
    }

    deinit {
        // `init` allocates at least one byte, so the base address exists.
        sodium_memzero(storage.baseAddress!, storage.count)
        storage.deallocate()
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
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { l in
            rhs.withUnsafeBytes { r in sodium_memcmp(l.baseAddress, r.baseAddress, l.count) == 0 }
        }
    }
}
