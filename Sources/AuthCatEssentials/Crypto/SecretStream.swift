import CSodium

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// libsodium's `crypto_secretstream_xchacha20poly1305`: a message split into
/// authenticated, ordered chunks.
///
/// An encrypting stream starts with a random 24-byte header that the reader
/// needs; every chunk then costs 17 bytes of overhead. Chunks cannot be
/// reordered, dropped or replayed without the reader noticing, and the writer
/// marks the last one `final`, so a reader that never sees a final chunk knows
/// the message was cut short. The state is wiped when the stream is released.
public final class SecretStream {
    /// The tag libsodium stores (encrypted) with each chunk.
    public enum Tag: Equatable, Sendable {
        /// An ordinary chunk; more follow.
        case message
        /// The last chunk of the message.
        case final
        /// `push` or `rekey`, which authcat does not write; a reader decides whether it accepts them.
        case other(UInt8)

        init(_ raw: UInt8) {
            switch raw {
            case crypto_secretstream_xchacha20poly1305_tag_message(): self = .message
            case crypto_secretstream_xchacha20poly1305_tag_final(): self = .final
            default: self = .other(raw)
            }
        }

        var raw: UInt8 {
            switch self {
            case .message: crypto_secretstream_xchacha20poly1305_tag_message()
            case .final: crypto_secretstream_xchacha20poly1305_tag_final()
            case .other(let value): value
            }
        }
    }

    public static let keySize = crypto_secretstream_xchacha20poly1305_keybytes()
    public static let headerSize = crypto_secretstream_xchacha20poly1305_headerbytes()
    /// Bytes a chunk's ciphertext has beyond its plaintext: the encrypted tag and the MAC.
    public static let overhead = crypto_secretstream_xchacha20poly1305_abytes()

    private enum Direction { case push, pull }

    private var state = crypto_secretstream_xchacha20poly1305_state()
    private let direction: Direction
    private var finished = false

    /// The header a reader needs; empty for a decrypting stream.
    public private(set) var header = Data()

    private init(direction: Direction) {
        self.direction = direction
    }

    deinit {
        withUnsafeMutableBytes(of: &state) { sodium_memzero($0.baseAddress, $0.count) }
    }

    /// Starts encrypting under `key` with a fresh random header.
    public static func encrypting(key: SecretBytes) throws -> SecretStream {
        try Sodium.ensureInitialized()
        try checkKey(key)
        var header = Data(count: headerSize)
        let stream = SecretStream(direction: .push)
        // The header buffer and the key were sized above, so their base addresses exist.
        let status = header.withUnsafeMutableBytes { h in
            key.withUnsafeBytes { k in
                crypto_secretstream_xchacha20poly1305_init_push(
                    &stream.state, h.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    k.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("secretstream initialisation") }
        stream.header = header
        return stream
    }

    /// Starts decrypting a stream that began with `header`, under `key`.
    public static func decrypting(key: SecretBytes, header: Data) throws -> SecretStream {
        try Sodium.ensureInitialized()
        try checkKey(key)
        guard header.count == headerSize else {
            throw CryptoError.invalidInput("secretstream header must be \(headerSize) bytes")
        }
        let stream = SecretStream(direction: .pull)
        // Both buffers were checked to have their full size, so their base addresses exist.
        let status = header.withUnsafeBytes { h in
            key.withUnsafeBytes { k in
                crypto_secretstream_xchacha20poly1305_init_pull(
                    &stream.state, h.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    k.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        // init_pull fails only on a header it cannot use; treat it like any other bad input.
        guard status == 0 else { throw CryptoError.authenticationFailed }
        return stream
    }

    /// Encrypts the next chunk; `tag: .final` ends the stream.
    public func seal(_ plaintext: Data, associatedData: Data = Data(), tag: Tag = .message) throws -> Data {
        guard direction == .push else { throw CryptoError.invalidInput("this secretstream decrypts; it cannot seal") }
        guard !finished else { throw CryptoError.invalidInput("the secretstream was already finished") }
        var ciphertext = Data(count: plaintext.count + Self.overhead)
        // The ciphertext is never empty (it holds at least the overhead), so its base address exists.
        let status = ciphertext.withUnsafeMutableBytes { c in
            plaintext.withUnsafeBytes { m in
                associatedData.withUnsafeBytes { ad in
                    crypto_secretstream_xchacha20poly1305_push(
                        &state, c.baseAddress!.assumingMemoryBound(to: UInt8.self), nil,
                        m.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(m.count),
                        ad.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(ad.count), tag.raw)
                }
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("secretstream encryption") }
        if tag == .final { finished = true }
        return ciphertext
    }

    /// Decrypts the next chunk and returns its plaintext and tag; throws
    /// `CryptoError.authenticationFailed` for a wrong key, an altered,
    /// reordered or replayed chunk, or a chunk after the final one.
    public func open(_ ciphertext: Data, associatedData: Data = Data()) throws -> (plaintext: Data, tag: Tag) {
        guard direction == .pull else { throw CryptoError.invalidInput("this secretstream encrypts; it cannot open") }
        guard !finished, ciphertext.count >= Self.overhead else { throw CryptoError.authenticationFailed }
        var plaintext = Data(count: ciphertext.count - Self.overhead)
        var rawTag: UInt8 = 0
        // The ciphertext holds at least the overhead, so its base address exists.
        let status = plaintext.withUnsafeMutableBytes { m in
            ciphertext.withUnsafeBytes { c in
                associatedData.withUnsafeBytes { ad in
                    crypto_secretstream_xchacha20poly1305_pull(
                        &state, m.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, &rawTag,
                        c.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(c.count),
                        ad.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(ad.count))
                }
            }
        }
        guard status == 0 else { throw CryptoError.authenticationFailed }
        let tag = Tag(rawTag)
        if tag == .final { finished = true }
        return (plaintext, tag)
    }

    private static func checkKey(_ key: SecretBytes) throws {
        guard key.count == keySize else { throw CryptoError.invalidInput("key must be \(keySize) bytes") }
    }
}
