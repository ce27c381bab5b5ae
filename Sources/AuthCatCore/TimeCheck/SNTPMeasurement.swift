import Foundation

/// What one SNTP exchange measured.
public struct SNTPMeasurement: Equatable, Sendable {
    /// How far the local clock is behind the server's, in seconds (positive:
    /// the local clock is slow; negative: it is fast).
    public var offset: Double
    /// The round trip, less the server's own processing time, in seconds.
    public var delay: Double
    public var stratum: Int
    /// The address that answered, as text.
    public var address: String

    public init(offset: Double, delay: Double, stratum: Int, address: String) {
        self.offset = offset
        self.delay = delay
        self.stratum = stratum
        self.address = address
    }

    /// RFC 5905's offset ((T2 − T1) + (T3 − T4)) / 2 and delay (T4 − T1) − (T3 − T2),
    /// from the client's send and receive times (T1, T4) and the server's (T2, T3).
    public init(
        sent t1: Date, serverReceived t2: Date, serverSent t3: Date, received t4: Date, stratum: Int,
        address: String
    ) {
        let (t1, t2, t3, t4) = (
            t1.timeIntervalSince1970, t2.timeIntervalSince1970, t3.timeIntervalSince1970,
            t4.timeIntervalSince1970
        )
        offset = ((t2 - t1) + (t3 - t4)) / 2
        delay = max(0, (t4 - t1) - (t3 - t2))
        self.stratum = stratum
        self.address = address
    }
}
