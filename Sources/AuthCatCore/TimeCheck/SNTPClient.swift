import AuthCatEssentials
import Foundation
import Synchronization

/// Asks one NTP server for the time with a single SNTP request (RFC 4330)
/// over UDP, and measures the local clock's offset from it.
///
/// Nothing but this one exchange touches the network: the host name is
/// resolved with `getaddrinfo`, each of its addresses is tried in turn, and
/// the first valid reply wins, all within one timeout (a name server that
/// never answers counts against it too).
public struct SNTPClient: Sendable {
    public var server: SNTPServer
    /// The most the whole query may take, name resolution included, in seconds.
    public var timeout: Double
    public var clock: any Clock

    public init(server: SNTPServer, timeout: Double = 3, clock: any Clock = SystemClock()) {
        self.server = server
        self.timeout = timeout
        self.clock = clock
    }

    /// Sends a request and measures the offset from the reply.
    /// - Throws: `SNTPError`: the host does not resolve, no reply within
    ///   `timeout`, or a reply that fails `SNTPPacket.problem(asReplyTo:)`.
    ///   Datagrams that do not answer this request are passed over; when only
    ///   such came before the deadline, the error says why the last was.
    public func measure() throws -> SNTPMeasurement {
        let deadline = Date().addingTimeInterval(timeout)
        let addresses = try resolve(until: deadline)
        var lastError = SNTPError.noAnswer(server.description, seconds: timeout)
        for (index, address) in addresses.enumerated() {
            // Each address gets an equal share of the time that is left.
            let share = deadline.timeIntervalSinceNow / Double(addresses.count - index)
            guard share > 0 else { break }
            do {
                return try exchange(with: address, until: Date().addingTimeInterval(share))
            } catch let passedOver as PassedOver {
                // Only stray datagrams came from this address: the next may still answer.
                lastError = .badReply(server.description, reason: passedOver.reason)
            } catch let error as SNTPError {
                if case .badReply = error { throw error }
                if case .noAnswer = error { continue }
                lastError = error
            }
        }
        throw lastError
    }

    /// One socket address, copied out of `getaddrinfo`'s list.
    private struct Address {
        var family: Int32
        var storage: sockaddr_storage
        var length: socklen_t

        var text: String {
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            var copy = storage
            let result = withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
                }
            }
            guard result == 0 else { return "?" }
            return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// What a resolution on its own thread came to; nil while it runs.
    private final class Resolution: Sendable {
        private let value = Mutex<Result<[Address], SNTPError>?>(nil)
        let done = DispatchSemaphore(value: 0)

        var result: Result<[Address], SNTPError>? { value.withLock { $0 } }

        func finish(_ result: Result<[Address], SNTPError>) {
            value.withLock { $0 = result }
            done.signal()
        }
    }

    /// The server's addresses. `getaddrinfo` has no timeout of its own, and
    /// a name server that does not answer keeps it for half a minute, so it
    /// runs on a thread of its own, which is left to finish alone at the deadline.
    private func resolve(until deadline: Date) throws -> [Address] {
        let resolution = Resolution()
        let server = server
        let thread = Thread {
            let result = Result { try Self.addresses(of: server) }
            resolution.finish(
                result.mapError { $0 as? SNTPError ?? .unresolvable(server.description, reason: "\($0)") })
        }
        thread.start()
        let left = max(0, deadline.timeIntervalSinceNow)
        guard resolution.done.wait(timeout: .now() + left) == .success, let result = resolution.result else {
            throw SNTPError.unresolvable(
                server.description,
                reason: "no answer from the name server within \(SNTPError.seconds(timeout))")
        }
        return try result.get()
    }

    private static func addresses(of server: SNTPServer) throws -> [Address] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(server.host, String(server.port), &hints, &list)
        guard status == 0 else {
            let reason = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            throw SNTPError.unresolvable(server.description, reason: reason.lowercased())
        }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var entry = list
        while let current = entry?.pointee {
            if let socketAddress = current.ai_addr, Int(current.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(
                        from: UnsafeRawBufferPointer(start: socketAddress, count: Int(current.ai_addrlen)))
                }
                addresses.append(Address(family: current.ai_family, storage: storage, length: current.ai_addrlen))
            }
            entry = current.ai_next
        }
        guard !addresses.isEmpty else {
            throw SNTPError.unresolvable(server.description, reason: "it has no address")
        }
        return addresses
    }

    private func exchange(with address: Address, until deadline: Date) throws -> SNTPMeasurement {
        let fd = socket(address.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw networkError("could not open a socket") }
        defer { close(fd) }
        var storage = address.storage
        // Named before any call that sets errno, which the error reports.
        let name = address.text
        // A connected UDP socket receives datagrams from that address only.
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, address.length) }
        }
        guard connected == 0 else { throw networkError("could not reach \(name)") }

        let sentAt = clock.now()
        let sentStamp = NTPTimestamp.make(sentAt)
        let request = SNTPPacket.request(transmit: sentStamp).bytes
        let written = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard written == request.count else { throw networkError("could not send to \(name)") }

        var buffer = [UInt8](repeating: 0, count: 512)
        // Why the last datagram that was not a reply to this request was passed over.
        var passedOver: String?
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw passedOver.map { PassedOver(reason: $0) as any Error }
                    ?? SNTPError.noAnswer(server.description, seconds: timeout)
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left * 1000, Double(Int32.max)).rounded(.up)))
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw networkError("could not wait for a reply") }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            let receivedAt = clock.now()
            if count < 0 {
                // A refused port (ICMP) is as good as silence: nothing listens there.
                if errno == EINTR || errno == EAGAIN || errno == ECONNREFUSED { continue }
                throw networkError("could not read the reply")
            }
            // A datagram that does not answer this request (a late reply, a forged
            // one) is passed over: the real reply may still come before the deadline.
            guard let reply = SNTPPacket(bytes: Array(buffer[..<count])) else {
                passedOver = "it is \(count) bytes, not \(SNTPPacket.size)"
                continue
            }
            guard reply.originTimestamp == sentStamp else {
                passedOver = "it does not answer this request (its origin timestamp is not ours)"
                continue
            }
            if let problem = reply.problem(asReplyTo: sentStamp) {
                throw SNTPError.badReply(server.description, reason: problem)
            }
            return SNTPMeasurement(
                sent: sentAt, serverReceived: NTPTimestamp.date(reply.receiveTimestamp, near: sentAt),
                serverSent: NTPTimestamp.date(reply.transmitTimestamp, near: sentAt), received: receivedAt,
                stratum: Int(reply.stratum), address: name)
        }
    }

    private func networkError(_ what: String) -> SNTPError {
        .network(server.description, reason: "\(what) (\(String(cString: strerror(errno)).lowercased()))")
    }
}

/// Only datagrams that did not answer the request came before the deadline;
/// why the last was passed over.
private struct PassedOver: Error {
    var reason: String
}
