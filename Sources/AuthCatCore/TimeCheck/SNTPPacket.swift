import Foundation

/// The 48-byte NTP packet that SNTP (RFC 4330, RFC 5905) exchanges: what a
/// client sends, and the checks a server's reply must pass before its times
/// are believed.
public struct SNTPPacket: Equatable, Sendable {
    /// Leap indicator (2 bits), version (3 bits) and mode (3 bits), in the first byte.
    public var leapIndicator: UInt8
    public var version: UInt8
    public var mode: UInt8
    /// 0 is a kiss-o'-death (the server refuses to answer), 1 a primary server, up to 15.
    public var stratum: UInt8
    /// For a kiss-o'-death, four ASCII letters saying why (RATE, DENY…).
    public var referenceID: UInt32
    /// T1 as the client sent it, echoed by the server.
    public var originTimestamp: UInt64
    /// T2: when the server received the request.
    public var receiveTimestamp: UInt64
    /// T3: when the server sent the reply (or, in a request, when the client sent it).
    public var transmitTimestamp: UInt64

    public static let size = 48
    public static let clientMode: UInt8 = 3
    public static let serverMode: UInt8 = 4

    public init(
        leapIndicator: UInt8 = 0, version: UInt8 = 4, mode: UInt8, stratum: UInt8 = 0, referenceID: UInt32 = 0,
        originTimestamp: UInt64 = 0, receiveTimestamp: UInt64 = 0, transmitTimestamp: UInt64
    ) {
        self.leapIndicator = leapIndicator
        self.version = version
        self.mode = mode
        self.stratum = stratum
        self.referenceID = referenceID
        self.originTimestamp = originTimestamp
        self.receiveTimestamp = receiveTimestamp
        self.transmitTimestamp = transmitTimestamp
    }

    /// A client request (LI 0, version 4, mode 3) carrying `transmit` as its transmit timestamp.
    public static func request(transmit: UInt64) -> SNTPPacket {
        SNTPPacket(mode: clientMode, transmitTimestamp: transmit)
    }

    /// The packet's 48 bytes, in network byte order; fields this type does not keep are zero.
    public var bytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.size)
        bytes[0] = (leapIndicator & 0x3) << 6 | (version & 0x7) << 3 | (mode & 0x7)
        bytes[1] = stratum
        put(referenceID, at: 12, into: &bytes)
        put(originTimestamp, at: 24, into: &bytes)
        put(receiveTimestamp, at: 32, into: &bytes)
        put(transmitTimestamp, at: 40, into: &bytes)
        return bytes
    }

    /// Reads a packet; nil when `bytes` is shorter than 48 bytes (extension fields after them are ignored).
    public init?(bytes: [UInt8]) {
        guard bytes.count >= Self.size else { return nil }
        leapIndicator = bytes[0] >> 6
        version = (bytes[0] >> 3) & 0x7
        mode = bytes[0] & 0x7
        stratum = bytes[1]
        referenceID = UInt32(Self.read(bytes, at: 12, count: 4))
        originTimestamp = Self.read(bytes, at: 24, count: 8)
        receiveTimestamp = Self.read(bytes, at: 32, count: 8)
        transmitTimestamp = Self.read(bytes, at: 40, count: 8)
    }

    /// Why this packet is no answer to a request that carried `sent`, or nil when it is one.
    ///
    /// A reply must come from a server (mode 4), with a stratum of 1 to 15
    /// (0 is a kiss-o'-death, whose code is named), echo the request's
    /// transmit timestamp as its origin (anything else is not a reply to this request),
    /// and carry nonzero receive and transmit timestamps.
    public func problem(asReplyTo sent: UInt64) -> String? {
        if mode != Self.serverMode { return "it is not a server reply (mode \(mode))" }
        if stratum == 0 { return "the server refused to answer (kiss-o'-death \(kissCode))" }
        if stratum > 15 { return "the server is not synchronised (stratum \(stratum))" }
        if leapIndicator == 3 { return "the server's clock is not synchronised (leap indicator 3)" }
        if originTimestamp != sent { return "it does not answer this request (its origin timestamp is not ours)" }
        if transmitTimestamp == 0 || receiveTimestamp == 0 { return "it carries no time" }
        return nil
    }

    /// The kiss-o'-death code: the reference id's four letters, when printable.
    public var kissCode: String {
        let letters = (0..<4).map { UInt8(truncatingIfNeeded: referenceID >> (24 - 8 * $0)) }
        guard letters.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "without a code" }
        return String(decoding: letters, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    private func put<Value: FixedWidthInteger>(_ value: Value, at offset: Int, into bytes: inout [UInt8]) {
        let size = MemoryLayout<Value>.size
        for index in 0..<size {
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - index)))
        }
    }

    private static func read(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// NTP's 64-bit timestamps: seconds since 1900 in the high 32 bits, a binary fraction in the low 32.
public enum NTPTimestamp {
    /// Seconds from 1900-01-01 (NTP's epoch) to 1970-01-01 (Unix's).
    public static let unixEpochOffset: Double = 2_208_988_800
    private static let era: Double = 4_294_967_296

    /// `date` as an NTP timestamp (in era 0 until 2036, wrapping after, as the protocol does).
    public static func make(_ date: Date) -> UInt64 {
        let seconds = date.timeIntervalSince1970 + unixEpochOffset
        let whole = seconds.rounded(.down)
        let fraction = UInt64(((seconds - whole) * era).rounded(.down)) & 0xFFFF_FFFF
        let wrapped = UInt64(whole.truncatingRemainder(dividingBy: era))
        return wrapped << 32 | fraction
    }

    /// The date of `timestamp`, in whichever 136-year era puts it nearest `reference`.
    public static func date(_ timestamp: UInt64, near reference: Date) -> Date {
        let seconds = Double(timestamp >> 32) + Double(timestamp & 0xFFFF_FFFF) / era - unixEpochOffset
        let eras = ((reference.timeIntervalSince1970 - seconds) / era).rounded()
        return Date(timeIntervalSince1970: seconds + eras * era)
    }
}
