import AuthCatCore
import AuthCatEssentials
import Foundation

/// The encrypted container of a backup: `BackupHeader`, then the payload
/// in chunks of libsodium secretstream XChaCha20-Poly1305.
///
/// Each chunk is a 4-byte big-endian length and that many bytes of
/// ciphertext; the plaintext is cut into 64 KiB pieces, and the last chunk
/// (which may be empty) carries the FINAL tag, so a cut-off file is
/// detected. Every chunk is authenticated with the 68 header bytes as
/// associated data, so no header byte can be changed unnoticed.
public enum BackupFile {
    public static let chunkSize = 64 * 1024

    /// Encrypts `plaintext` under `key`, which the caller derived with `kdf`.
    public static func seal(_ plaintext: Data, key: SecretBytes, kdf: KDFParameters) throws -> Data {
        let stream = try SecretStream.encrypting(key: key)
        let header = BackupHeader(kdf: kdf, streamHeader: stream.header).encoded()
        var output = header
        output.reserveCapacity(
            header.count + plaintext.count + (plaintext.count / chunkSize + 1) * (4 + SecretStream.overhead))
        var offset = plaintext.startIndex
        repeat {
            let end = plaintext.index(offset, offsetBy: chunkSize, limitedBy: plaintext.endIndex) ?? plaintext.endIndex
            let last = end == plaintext.endIndex
            let chunk = try stream.seal(plaintext[offset..<end], associatedData: header, tag: last ? .final : .message)
            output.appendBigEndian(UInt32(chunk.count))
            output.append(chunk)
            offset = end
        } while offset < plaintext.endIndex
        return output
    }

    /// Decrypts a backup; `key` turns the header's KDF parameters into the key.
    /// - Throws: `BackupError` for anything but a complete, untouched backup
    ///   under the right key.
    public static func open(_ data: Data, key: (KDFParameters) throws -> SecretBytes) throws -> Data {
        let header = try BackupHeader(decoding: data)
        let headerBytes = data.prefix(BackupHeader.size)
        let stream: SecretStream
        do {
            stream = try SecretStream.decrypting(key: try key(header.kdf), header: header.streamHeader)
        } catch CryptoError.authenticationFailed {
            throw BackupError.wrongPassphraseOrAltered
        }
        var reader = ChunkReader(data: data, offset: data.startIndex + BackupHeader.size)
        var plaintext = Data()
        while let chunk = try reader.next() {
            let number = reader.count
            var opened: (plaintext: Data, tag: SecretStream.Tag)
            do {
                opened = try stream.open(chunk, associatedData: headerBytes)
            } catch {
                throw number == 1 ? BackupError.wrongPassphraseOrAltered : BackupError.damaged(chunk: number)
            }
            plaintext.append(opened.plaintext)
            // The archive holds secrets; no stray copy of a piece of it outlives this loop.
            opened.plaintext.resetBytes(in: 0..<opened.plaintext.count)
            switch opened.tag {
            case .final:
                guard reader.atEnd else { throw BackupError.trailingData }
                return plaintext
            case .message:
                continue
            case .other:
                throw BackupError.damaged(chunk: number)
            }
        }
        throw BackupError.truncated
    }

    /// Splits the bytes after the header into length-prefixed chunks.
    struct ChunkReader {
        let data: Data
        var offset: Data.Index
        /// How many chunks were read, so errors can name the chunk.
        private(set) var count = 0

        var atEnd: Bool { offset == data.endIndex }

        /// The next chunk's ciphertext, nil at the end of the data.
        mutating func next() throws -> Data? {
            guard !atEnd else { return nil }
            count += 1
            guard data.endIndex - offset >= 4 else { throw BackupError.truncated }
            let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard length >= SecretStream.overhead, length <= BackupFile.chunkSize + SecretStream.overhead else {
                throw BackupError.damaged(chunk: count)
            }
            guard data.endIndex - offset >= length else { throw BackupError.truncated }
            defer { offset += length }
            return data[offset..<offset + length]
        }
    }
}
