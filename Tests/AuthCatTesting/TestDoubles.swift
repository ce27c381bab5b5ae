import AuthCatCore
import AuthCatEssentials
import Foundation
import Synchronization

// The stand-ins tests use for what is slow or real: a clock set by hand and
// the cheapest key derivation.

/// A clock that tests set and advance by hand.
public final class ManualClock: Clock, Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(start)
    }

    public func now() -> Date {
        current.withLock { $0 }
    }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

extension KDFParameters {
    /// The smallest limits libsodium accepts; only for tests, where strength does not matter.
    public static func minimumForTesting() throws -> KDFParameters {
        try KDFParameters(opsLimit: minimumOpsLimit, memLimit: minimumMemLimit)
    }
}
