import Foundation

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
