#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the current time comes from; injected so that tests can fix it.
public protocol Clock: Sendable {
    func now() -> Date
}

/// The real time of day.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}
