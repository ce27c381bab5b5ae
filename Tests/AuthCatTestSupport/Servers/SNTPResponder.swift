import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A time server on 127.0.0.1 for tests: a thread answering SNTP requests on
/// a UDP port the kernel picks, with a clock skewed as the test says, or
/// answering wrongly, or not at all.
///
/// Written from RFC 5905's packet layout on its own, not with authcat's
/// packet type, so that a mistake in that type cannot hide itself.
public final class SNTPResponder: @unchecked Sendable {
    public enum Behaviour: Sendable {
        /// A proper stratum-2 reply whose times are `seconds` ahead of the real time.
        case skewed(seconds: Double)
        /// Reads requests and never answers.
        case silent
        /// A reply in mode 3 (client) rather than 4 (server).
        case wrongMode
        /// A reply whose origin timestamp is not the request's transmit timestamp.
        case wrongOrigin
        /// A kiss-o'-death: stratum 0, code RATE.
        case kissOfDeath
        /// A reply to another request first (as a forger would send), then a
        /// proper one `seconds` ahead.
        case strayThenSkewed(seconds: Double)
        /// A proper reply `seconds` ahead, held back until the test calls `release()`.
        case held(seconds: Double)
    }

    public let port: Int
    private let fd: Int32
    private let behaviour: Behaviour
    private let lock = NSLock()
    private var stopping = false
    private var requests = 0
    private var released = false
    /// Replies held back (`held`), with the address each goes to.
    private var pending: [(reply: [UInt8], client: sockaddr_storage, length: socklen_t)] = []
    private let finished = DispatchSemaphore(value: 0)

    public init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let socketFD = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard socketFD >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let error = POSIXError(.init(rawValue: errno) ?? .EIO)
            close(socketFD)
            throw error
        }
        fd = socketFD
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// How many requests arrived so far.
    public var requestCount: Int { lock.withLock { requests } }

    /// Sends the replies held back so far and every later one at once (`held`).
    public func release() {
        lock.withLock { released = true }
    }

    /// Waits until `count` requests have arrived, up to `timeout` seconds; whether they did.
    public func waitForRequests(_ count: Int, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while requestCount < count {
            guard Date() < deadline else { return false }
            usleep(5_000)
        }
        return true
    }

    /// Stops the thread and closes the socket; waits until the thread is done.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        finished.wait()
        close(fd)
    }

    deinit { stop() }

    private func serve() {
        defer { finished.signal() }
        var buffer = [UInt8](repeating: 0, count: 512)
        while !lock.withLock({ stopping }) {
            sendReleasedReplies()
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            var client = sockaddr_storage()
            var clientLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &client) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &clientLength)
                    }
                }
            }
            guard count >= 48 else { continue }
            lock.withLock { requests += 1 }
            for reply in replies(to: Array(buffer[..<count])) {
                if case .held = behaviour {
                    lock.withLock { pending.append((reply, client, clientLength)) }
                } else {
                    send(reply, to: client, length: clientLength)
                }
            }
        }
    }

    private func sendReleasedReplies() {
        let due = lock.withLock { () -> [(reply: [UInt8], client: sockaddr_storage, length: socklen_t)] in
            guard released else { return [] }
            defer { pending = [] }
            return pending
        }
        for reply in due { send(reply.reply, to: reply.client, length: reply.length) }
    }

    private func send(_ reply: [UInt8], to client: sockaddr_storage, length: socklen_t) {
        var client = client
        _ = reply.withUnsafeBytes { bytes in
            withUnsafePointer(to: &client) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, 0, $0, length)
                }
            }
        }
    }

    private func replies(to request: [UInt8]) -> [[UInt8]] {
        switch behaviour {
        case .silent: []
        case .skewed(let seconds), .held(let seconds): [reply(to: request, skew: seconds)]
        case .wrongMode: [reply(to: request, mode: 3)]
        case .wrongOrigin: [reply(to: request, strayOrigin: true)]
        case .kissOfDeath: [reply(to: request, stratum: 0)]
        case .strayThenSkewed(let seconds):
            [reply(to: request, skew: seconds, strayOrigin: true), reply(to: request, skew: seconds)]
        }
    }

    private func reply(
        to request: [UInt8], skew: Double = 0, mode: UInt8 = 4, stratum: UInt8 = 2,
        strayOrigin: Bool = false
    ) -> [UInt8] {
        var origin = Array(request[40..<48])
        if strayOrigin { origin[7] ^= 0xFF }
        var packet = [UInt8](repeating: 0, count: 48)
        packet[0] = 0 << 6 | 4 << 3 | mode
        packet[1] = stratum
        packet[2] = 6
        packet[3] = 0xEC  // precision 2^-20
        if stratum == 0 {
            packet.replaceSubrange(12..<16, with: Array("RATE".utf8))
        } else {
            packet.replaceSubrange(12..<16, with: [127, 0, 0, 1])
        }
        let now = Self.timestamp(Date().timeIntervalSince1970 + skew)
        packet.replaceSubrange(16..<24, with: now)  // reference
        packet.replaceSubrange(24..<32, with: origin)
        packet.replaceSubrange(32..<40, with: now)  // receive
        packet.replaceSubrange(40..<48, with: Self.timestamp(Date().timeIntervalSince1970 + skew))  // transmit
        return packet
    }

    /// Unix seconds as an NTP timestamp: seconds since 1900, then a 32-bit binary fraction, big-endian.
    private static func timestamp(_ unixSeconds: Double) -> [UInt8] {
        let ntp = unixSeconds + 2_208_988_800
        let whole = UInt64(ntp)
        let fraction = UInt64((ntp - Double(whole)) * 4_294_967_296) & 0xFFFF_FFFF
        let value = (whole & 0xFFFF_FFFF) << 32 | fraction
        return (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
