import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loopback TCP ports for test servers.
///
/// Test classes run side by side in processes of their own (scripts/test), so
/// a port is found free, then reserved for the whole life of the test process
/// that asked for it: no other test process, nor this one again, is given it
/// while it lives, although the server that will listen on it has not bound
/// it yet. Ports come from below the kernel's ephemeral range (32768 and up by
/// default), where no outgoing connection and no `bind` to port 0 takes one
/// meanwhile.
public enum FreePort {
    /// The ports tried, below Linux's default ephemeral range.
    static let range = 20_000..<32_768

    /// A port on 127.0.0.1 that nothing listens on right now and that no other
    /// test process has been given (while it runs).
    public static func find() throws -> Int {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let port = Int.random(in: range, using: &generator)
            guard Reservations.shared.reserve(port) else { continue }
            if canBind(port) { return port }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func isAccepting(_ port: Int) -> Bool {
        withLoopbackSocket(port: port) { fd, address, length in connect(fd, address, length) == 0 }
    }

    /// Whether a TCP socket can bind 127.0.0.1:`port` now (it is closed again at once).
    private static func canBind(_ port: Int) -> Bool {
        withLoopbackSocket(port: port) { fd, address, length in bind(fd, address, length) == 0 }
    }

    /// `body` given a new TCP socket, closed afterwards, and 127.0.0.1:`port`; false when no socket can be made.
    private static func withLoopbackSocket(
        port: Int, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool
    ) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// The ports this process holds: an `flock` on a file per port in a
    /// folder every test process shares, held until the process ends (the
    /// kernel releases it then, however the process ends).
    private final class Reservations: @unchecked Sendable {
        static let shared = Reservations()
        private let lock = NSLock()
        private var held: [Int32] = []
        private let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "authcat-test-ports-\(getuid())"
        ).path

        /// Takes `port` unless another test process (or this one) holds it.
        func reserve(_ port: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            mkdir(folder, 0o700)
            // A second descriptor of this process conflicts with its first: an
            // flock belongs to the open file, so a port is never given twice.
            let fd = open(folder + "/\(port)", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return false }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                close(fd)
                return false
            }
            held.append(fd)
            return true
        }
    }
}
