import Foundation

/// An NTP server to ask: a host name or address, and a UDP port.
public struct SNTPServer: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public static let defaultPort: UInt16 = 123
    /// The NTP Pool, which most Linux distributions use too.
    public static let `default` = SNTPServer(host: "pool.ntp.org", port: defaultPort)

    public init(host: String, port: UInt16 = defaultPort) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST`, `HOST:PORT`, an IPv6 address, or `[IPv6]:PORT`.
    /// - Throws: `SNTPError.badServer` for an empty host or a port that is not 1 to 65535.
    public init(parsing text: String) throws {
        let text = text.trimmingCharacters(in: .whitespaces)
        var host = text
        var portText: Substring?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw SNTPError.badServer(text) }
                portText = rest.dropFirst()
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw SNTPError.badServer(text)
        }
        var port = Self.defaultPort
        if let portText {
            guard let number = UInt16(portText), number > 0 else { throw SNTPError.badServer(text) }
            port = number
        }
        self.init(host: host, port: port)
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port == Self.defaultPort ? shownHost : "\(shownHost):\(port)"
    }
}
