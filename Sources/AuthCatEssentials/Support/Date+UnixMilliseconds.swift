#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Date {
    /// Whole milliseconds since 1970, as the vault stores times.
    public var unixMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    public init(unixMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(unixMilliseconds) / 1000)
    }
}
