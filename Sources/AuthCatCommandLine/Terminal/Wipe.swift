import Foundation

/// Overwrites buffers that held secrets before they are released.
enum Wipe {
    static func bytes(_ buffer: inout [UInt8]) {
        buffer.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            memset(base, 0, bytes.count)
        }
    }
}
