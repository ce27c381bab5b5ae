import AuthCatEssentials
import Foundation

/// Bounded reads from a file descriptor into one preallocated buffer, so no
/// reallocation leaves stray copies of a secret behind.
enum FileDescriptorReader {
    /// All of `fd`, at most `limit` bytes.
    static func readAll(_ fd: Int32, limit: Int, what: String) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit + 1)
        defer { Wipe.bytes(&buffer) }
        let count = try buffer.withUnsafeMutableBytes { try fill($0, from: fd, limit: limit, what: what) }
        return Array(buffer[0..<count])
    }

    /// A secret read from `fd` (at most `limit` bytes) straight into locked
    /// memory; `keep` says how many of the bytes read to keep (say, up to
    /// the first line break), so the rest is trimmed in place, never copied.
    static func readSecret(
        _ fd: Int32, limit: Int, what: String,
        keep: (UnsafeRawBufferPointer) -> Int = { $0.count }
    ) throws -> SecretBytes {
        try SecretBytes.reading(capacity: limit + 1) { buffer in
            let count = try fill(buffer, from: fd, limit: limit, what: what)
            return keep(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The length of the first line of `bytes`, without its `\n` or `\r\n`.
    static func firstLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        var length = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        if length > 0, bytes[length - 1] == UInt8(ascii: "\r") { length -= 1 }
        return length
    }

    /// Reads until end of file into `buffer`, which holds `limit + 1` bytes,
    /// and returns the count; more than `limit` bytes is an error.
    private static func fill(
        _ buffer: UnsafeMutableRawBufferPointer, from fd: Int32, limit: Int, what: String
    ) throws -> Int {
        var count = 0
        while count <= limit {
            // `buffer` has limit + 1 > count bytes, so the base address exists.
            let result = Foundation.read(fd, buffer.baseAddress!.advanced(by: count), buffer.count - count)
            if result < 0 {
                if errno == EINTR { continue }
                throw InputError.readFailed(what: what, reason: String(cString: strerror(errno)).lowercased())
            }
            if result == 0 { break }
            count += result
        }
        guard count <= limit else { throw InputError.tooLong(what: what, limit: limit) }
        return count
    }
}

/// Overwrites buffers that held secrets before they are released.
enum Wipe {
    static func bytes(_ buffer: inout [UInt8]) {
        buffer.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            memset(base, 0, bytes.count)
        }
    }
}
