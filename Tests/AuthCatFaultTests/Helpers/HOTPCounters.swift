import AuthCatEssentials

/// Which HOTP counter value printed a code: the codes of the first `count`
/// counters of one secret, computed here with authcat's own generator (itself
/// checked against RFC 4226), so a test can tell a reused counter from two
/// counters that happen to share a code.
struct HOTPCounters {
    private var counters: [String: [UInt64]] = [:]

    init(base32Secret: String, digits: Int, count: UInt64 = 4096) throws {
        let secret = try Base32.decode(base32Secret)
        for counter in 0..<count {
            counters[try OTPGenerator.hotp(secret: secret, counter: counter, digits: digits), default: []].append(
                counter)
        }
    }

    /// The counter values whose code is `code` (usually one).
    func counters(printing code: String) -> [UInt64] {
        counters[code] ?? []
    }
}
