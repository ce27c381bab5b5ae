#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

// Time as authcat reads it (an injected clock), stores it (milliseconds
// since 1970) and shows it (`Timestamp`).

/// Where the current time comes from; injected so that tests can fix it.
public protocol Clock: Sendable {
    func now() -> Date
}

/// The real time of day.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}

extension Date {
    /// Whole milliseconds since 1970, as the vault stores times.
    public var unixMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    public init(unixMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(unixMilliseconds) / 1000)
    }
}

/// How text output shows a moment: ISO 8601 in the local time zone (`TZ`,
/// else the system's), to the second, with its offset (`Z` when it is UTC's).
/// JSON keeps seconds since 1970, which need no zone.
public enum Timestamp {
    /// Formatted with `localtime_r` rather than an `ISO8601DateFormatter`: making
    /// a formatter costs more than a millisecond, and a page of history after a
    /// big import shows thousands of lines.
    public static func text(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "\(seconds)" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = Int(parts.tm_year) + 1900
        let yearText =
            year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - "\(year)".count) + "\(year)" : "\(year)"
        return "\(yearText)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))" + offset(seconds: Int(parts.tm_gmtoff))
    }

    /// `Z` for UTC, else `+HH:MM` or `-HH:MM` (zones such as India's are not whole hours).
    private static func offset(seconds: Int) -> String {
        guard seconds != 0 else { return "Z" }
        let minutes = abs(seconds) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return (seconds < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
    }
}
