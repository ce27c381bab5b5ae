import Foundation

/// This machine's name, for naming the device in history.
enum HostName {
    /// `gethostname`, not `ProcessInfo.hostName`, which may wait on DNS.
    static func current() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this device" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "this device" : name
    }
}
