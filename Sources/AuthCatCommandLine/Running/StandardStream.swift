import AuthCatCore
import AuthCatEssentials
import Foundation
import Synchronization

/// Standard output or standard error of one invocation: a descriptor, and
/// what was written to it but not yet sent. To a pipe or a file, output is
/// sent when the buffer fills, when asked (`flush`) and when the command
/// ends, so a long listing costs a few system calls, not one per line. To a
/// terminal each line goes out once it is whole, as C's stdio does: a person
/// sees what was printed (a recovery key) before slow work that follows it.
public final class StandardStream: Sendable {
    public let fileDescriptor: Int32
    /// Whether each whole line is sent at once: the descriptor is a terminal.
    private let sendsEachLine: Bool
    /// Its room is reserved once, so that it never grows into new storage and
    /// leaves an unwiped copy behind.
    private let pending = Mutex<[UInt8]>(
        Array(unsafeUninitializedCapacity: StandardStream.capacity) { _, count in count = 0 })

    /// Bytes held before they are sent anyway.
    private static let capacity = 64 * 1024

    public init(_ fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        sendsEachLine = isatty(fileDescriptor) == 1
    }

    public var isTerminal: Bool { sendsEachLine }

    func write(_ text: String) {
        write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) {
        pending.withLock { buffer in
            if buffer.count + bytes.count > Self.capacity { sendAndWipe(&buffer) }
            if bytes.count > Self.capacity {
                _ = bytes.withUnsafeBytes { send($0) }
            } else {
                buffer.append(contentsOf: bytes)
                if sendsEachLine, bytes.contains(UInt8(ascii: "\n")) { sendAndWipe(&buffer) }
            }
        }
    }

    /// Sends everything written so far, then `data`, and says when that fails:
    /// for output that is the command's product (a backup, an export).
    /// - Throws: `StandardStreamError` when the bytes could not all be written.
    func writeNow(_ data: Data) throws {
        flush()
        if let failure = data.withUnsafeBytes({ send($0) }) {
            throw StandardStreamError(reason: String(cString: strerror(failure)))
        }
    }

    /// Sends everything written so far. A reader that went away (a closed
    /// pipe) or a full disk loses the output, as `print` would. What was held
    /// is wiped: it may have been a code or a secret the user asked to see.
    public func flush() {
        pending.withLock { sendAndWipe(&$0) }
    }

    private func sendAndWipe(_ buffer: inout [UInt8]) {
        _ = buffer.withUnsafeBytes { send($0) }
        Wipe.bytes(&buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes`; the C library's error number if that failed.
    private func send(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = Foundation.write(fileDescriptor, base.advanced(by: offset), bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EIO }
            offset += written
        }
        return nil
    }
}
