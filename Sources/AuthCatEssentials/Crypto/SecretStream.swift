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
            case Sodium.streamMessageTag: self = .message
            case Sodium.streamFinalTag: self = .final
            default: self = .other(raw)
            }
        }

        var raw: UInt8 {
            switch self {
            case .message: Sodium.streamMessageTag
            case .final: Sodium.streamFinalTag
            case .other(let value): value
            }
        }
    }

    public static let keySize = Sodium.streamKeySize
    public static let headerSize = Sodium.streamHeaderSize
    /// Bytes a chunk's ciphertext has beyond its plaintext: the encrypted tag and the MAC.
    public static let overhead = Sodium.streamOverhead

    private enum Direction { case push, pull }

    /// libsodium's stream state, which holds a key derived from the stream's key.
    private let state = UnsafeMutableRawBufferPointer.allocate(
        byteCount: Sodium.streamStateSize, alignment: Sodium.streamStateAlignment)
    private let direction: Direction
    private var finished = false

    /// The header a reader needs; empty for a decrypting stream.
    public private(set) var header = Data()

    private init(direction: Direction) {
        self.direction = direction
        state.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        Sodium.wipe(state)
        state.deallocate()
    }

    /// Starts encrypting under `key` with a fresh random header.
    public static func encrypting(key: SecretBytes) throws -> SecretStream {
        try Sodium.ensureInitialized()
        try checkKey(key)
        var header = Data(count: headerSize)
        let stream = SecretStream(direction: .push)
        try header.withUnsafeMutableBytes { h in
            try key.withUnsafeBytes { k in try Sodium.streamInitPush(state: stream.state, header: h, key: k) }
        }
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
        try header.withUnsafeBytes { h in
            try key.withUnsafeBytes { k in try Sodium.streamInitPull(state: stream.state, header: h, key: k) }
        }
        return stream
    }

    /// Encrypts the next chunk; `tag: .final` ends the stream.
    public func seal(_ plaintext: Data, associatedData: Data = Data(), tag: Tag = .message) throws -> Data {
        guard direction == .push else { throw CryptoError.invalidInput("this secretstream decrypts; it cannot seal") }
        guard !finished else { throw CryptoError.invalidInput("the secretstream was already finished") }
        var ciphertext = Data(count: plaintext.count + Self.overhead)
        try ciphertext.withUnsafeMutableBytes { c in
            try plaintext.withUnsafeBytes { m in
                try associatedData.withUnsafeBytes { ad in
                    try Sodium.streamPush(
                        state: state, into: c, message: m, associatedData: ad, tag: tag.raw)
                }
            }
        }
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
        let rawTag = try plaintext.withUnsafeMutableBytes { m in
            try ciphertext.withUnsafeBytes { c in
                try associatedData.withUnsafeBytes { ad in
                    try Sodium.streamPull(state: state, into: m, ciphertext: c, associatedData: ad)
                }
            }
        }
        let tag = Tag(rawTag)
        if tag == .final { finished = true }
        return (plaintext, tag)
    }

    private static func checkKey(_ key: SecretBytes) throws {
        guard key.count == keySize else { throw CryptoError.invalidInput("key must be \(keySize) bytes") }
    }
}
