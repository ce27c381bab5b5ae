import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A port on 127.0.0.1 that passes every connection through to another
/// loopback port, and that a test can close and open again: while closed,
/// connections are refused, as from a server that went away, and once open
/// again the server behind it is there with everything it held. (Stopping
/// moto itself would lose its objects.)
public final class LoopbackRelay: @unchecked Sendable {
    public let port: Int
    private let target: Int
    private let lock = NSLock()
    private var listener: Int32 = -1
    private var connections: Set<Int32> = []
    /// Ends when the accepting thread of the current opening has ended.
    private var accepting: DispatchGroup?

    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Listens on a port the kernel picks, passing connections through to `target`.
    public init(to target: Int) throws {
        self.target = target
        let fd = try Self.listen(on: 0)
        listener = fd
        port = try Self.boundPort(of: fd)
        startAccepting(on: fd)
    }

    deinit { close() }

    /// Whether connections are passed through now.
    public var isOpen: Bool { lock.withLock { listener >= 0 } }

    /// Stops listening and cuts every connection; returns once no new one is taken.
    public func close() {
        let (fd, thread) = lock.withLock { () -> (Int32, DispatchGroup?) in
            defer {
                listener = -1
                accepting = nil
            }
            return (listener, accepting)
        }
        guard fd >= 0 else { return }
        // Wakes the thread blocked in accept(2), which then ends.
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
        thread?.wait()
        Glibc.close(fd)
        // Under the lock: a pump removes its sockets under it before closing them, so none is reused yet.
        lock.withLock {
            for connection in connections { Glibc.shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    /// Listens on the same port again.
    public func open() throws {
        guard !isOpen else { return }
        let fd = try Self.listen(on: port)
        lock.withLock { listener = fd }
        startAccepting(on: fd)
    }

    private func startAccepting(on fd: Int32) {
        let group = DispatchGroup()
        group.enter()
        lock.withLock { accepting = group }
        Thread { [self] in
            defer { group.leave() }
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else {
                    if errno == EINTR { continue }
                    return  // shut down by close()
                }
                pass(client)
            }
        }.start()
    }

    /// Connects to the target and copies bytes both ways until either side ends.
    private func pass(_ client: Int32) {
        guard let server = try? Self.connect(to: target) else {
            Glibc.close(client)
            return
        }
        lock.withLock {
            connections.insert(client)
            connections.insert(server)
        }
        Thread { [self] in
            Self.pump(client, server)
            lock.withLock {
                connections.remove(client)
                connections.remove(server)
            }
            Glibc.close(client)
            Glibc.close(server)
        }.start()
    }

    private static func pump(_ a: Int32, _ b: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var pollers = [
            pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            guard poll(&pollers, 2, -1) > 0 else {
                if errno == EINTR { continue }
                return
            }
            for index in 0..<2 where pollers[index].revents != 0 {
                let from = pollers[index].fd
                let to = pollers[1 - index].fd
                let count = recv(from, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                var sent = 0
                while sent < count {
                    let written = buffer.withUnsafeBytes {
                        send(to, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                    }
                    guard written > 0 else { return }
                    sent += written
                }
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

    private static func failure() -> POSIXError {
        POSIXError(.init(rawValue: errno) ?? .EIO)
    }

    private static func listen(on port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure() }
        // The port is taken again after close(), while its old connections may linger in TIME_WAIT.
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(fd, 64) == 0 else {
            let error = failure()
            Glibc.close(fd)
            throw error
        }
        return fd
    }

    private static func boundPort(of fd: Int32) throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw failure() }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func connect(to port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure() }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = failure()
            Glibc.close(fd)
            throw error
        }
        return fd
    }
}
