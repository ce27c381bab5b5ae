import Foundation

/// Bounded reads from a file descriptor into one preallocated buffer, so no
/// reallocation leaves stray copies of a secret behind.
enum FileDescriptorReader {
    static func readAll(_ fd: Int32, limit: Int, what: String) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let result = buffer.withUnsafeMutableBytes { bytes in
                // `bytes` has limit + 1 > count bytes, so the base address exists.
                Foundation.read(fd, bytes.baseAddress!.advanced(by: count), bytes.count - count)
            }
            if result < 0 {
                if errno == EINTR { continue }
                Wipe.bytes(&buffer)
                throw InputError.readFailed(what: what, reason: String(cString: strerror(errno)).lowercased())
            }
            if result == 0 { break }
            count += result
        }
        guard count <= limit else {
            Wipe.bytes(&buffer)
            throw InputError.tooLong(what: what, limit: limit)
        }
        let content = Array(buffer[0..<count])
        Wipe.bytes(&buffer)
        return content
    }
}
