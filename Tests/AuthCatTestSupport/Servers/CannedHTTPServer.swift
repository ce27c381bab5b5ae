import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 for tests of a client: a thread that takes
/// one connection at a time, keeps the request exactly as it arrived, and
/// answers as the test says: canned bytes, bytes dribbled out slowly, or
/// nothing at all. Every answer closes its connection.
public final class CannedHTTPServer: @unchecked Sendable {
    /// A request as it arrived on the wire.
    public struct Request: Sendable {
        /// The request line, e.g. `GET /bucket/key?prefix=a%2F HTTP/1.1`.
        public var line: String
        /// Header names lower-cased, in the order sent.
        public var headers: [(name: String, value: String)]
        public var body: Data

        /// The value of header `name` (lower-case), if sent.
        public func header(_ name: String) -> String? {
            headers.first { $0.name == name }?.value
        }
    }

    public enum Answer: Sendable {
        /// These bytes, then the connection is closed.
        case bytes(Data)
        /// `head` at once, then `body` one byte at a time, `interval` seconds apart.
        case dribble(head: Data, body: Data, interval: TimeInterval)
        /// Nothing; the connection stays open until `stop()`.
        case silence
        /// `head`, then `piece` `count` times (without end when nil, until the
        /// client goes away or `stop()`), then `tail`.
        case stream(head: Data, piece: Data, count: Int?, tail: Data)
    }

    public let port: Int
    private let listener: Int32
    private let answer: @Sendable (Request) -> Answer
    private let lock = NSLock()
    private var stopping = false
    private var received: [Request] = []
    private var held: [Int32] = []
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on a port the kernel picks and answers each request with `answer(request)`.
    public init(answer: @escaping @Sendable (Request) -> Answer) throws {
        self.answer = answer
        (listener, port) = try Self.openListener()
        Thread { [self] in serve() }.start()
    }

    deinit { stop() }

    /// A whole reply: status line, the headers given, `content-length` unless `length` is false, and the body.
    public static func reply(
        _ status: Int, headers: [String: String] = [:], body: Data = Data(), length: Bool = true
    ) -> Data {
        var head = "HTTP/1.1 \(status) Canned\r\nconnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if length { head += "content-length: \(body.count)\r\n" }
        return Data((head + "\r\n").utf8) + body
    }

    /// The requests so far, in order of arrival.
    public var requests: [Request] { lock.withLock { received } }

    /// Waits up to `timeout` seconds until `count` requests have arrived; whether they did.
    public func waitForRequests(_ count: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while requests.count < count {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    /// Stops the thread and closes every socket; waits until the thread is done.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        finished.wait()
        for fd in lock.withLock({ held }) { close(fd) }
        close(listener)
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func serve() {
        defer { finished.signal() }
        while !isStopping {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            guard let request = read(connection) else {
                close(connection)
                continue
            }
            lock.withLock { received.append(request) }
            respond(on: connection, with: answer(request))
        }
    }

    private func respond(on connection: Int32, with answer: Answer) {
        switch answer {
        case .bytes(let bytes):
            write(bytes, to: connection)
            close(connection)
        case .dribble(let head, let body, let interval):
            write(head, to: connection)
            // Until the client goes away: the next byte would only wait for nobody.
            for byte in body where !isStopping {
                guard write(Data([byte]), to: connection) else { break }
                usleep(useconds_t(interval * 1_000_000))
            }
            close(connection)
        case .silence:
            lock.withLock { held.append(connection) }
        case .stream(let head, let piece, let count, let tail):
            // A client that stops reading without closing must not hold the server's one thread for ever.
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var sent = 0
            var open = write(head, to: connection)
            while open, count.map({ sent < $0 }) ?? true, !isStopping {
                open = write(piece, to: connection)
                sent += 1
            }
            if open { write(tail, to: connection) }
            close(connection)
        }
    }

    /// Reads one request: the head up to the blank line, then `content-length` bytes of body.
    private func read(_ connection: Int32) -> Request? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes = Data()
        let separator = Data("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.range(of: separator) == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            bytes.append(contentsOf: chunk[..<count])
        }
        guard let end = bytes.range(of: separator) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(bytes[end.upperBound...])
        let length = headers.first { $0.name == "content-length" }.flatMap { Int($0.value) } ?? 0
        while body.count < length {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            body.append(contentsOf: chunk[..<count])
        }
        return Request(line: lines[0], headers: headers, body: body)
    }

    /// Whether every byte went out (false once the client has gone).
    @discardableResult
    private func write(_ bytes: Data, to connection: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = send(connection, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }

    private static func openListener() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 16) == 0 else {
            let error = POSIXError(.init(rawValue: errno) ?? .EIO)
            close(fd)
            throw error
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
