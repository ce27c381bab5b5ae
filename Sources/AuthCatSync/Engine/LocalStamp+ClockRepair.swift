import AuthCatEssentials
import Foundation

extension LocalStamp {
    /// Brings this device's clock back into range when it was poisoned: an
    /// authcat from before clocks were bounded imported a clock far in the
    /// future (at `Int64.max`, say), or this device's own system clock once
    /// ran more than a day fast; every later change would carry it, and the
    /// other devices would refuse them.
    ///
    /// The reference is this device's system clock, or the newest clock
    /// another device wrote, if that is later and within `trustedLead` of
    /// it: a clock merely set back (a dead RTC battery) is not poisoned, since
    /// the others reached that time too, and its stamps stay as they are. Its
    /// last successful sync may have happened while its clock was wrong, so
    /// it proves nothing. Out of range, the clock restarts from the highest
    /// field clock still in range; each field whose clock is out of range is
    /// stamped afresh and its record exported again, so every device
    /// converges on the value this one holds. Costs one read of the state
    /// row when nothing is wrong (docs/FORMAT.md §5.6).
    ///
    /// Returns whether it repaired: this device's batches on the remote may
    /// then hold clocks the others refuse, and its later batches would wait
    /// behind them, so the sync writes a snapshot in their place.
    func repairPoisonedClock() throws -> Bool {
        let physicalNow = clock.now().unixMilliseconds
        guard let state = try store.state(), !state.clock.isWithinBounds(reference: physicalNow) else { return false }
        return try store.transaction { db in
            var state = try db.requiredState()
            let records = try db.allClocks()
            let reference = Self.clockReference(physicalNow: physicalNow, records: records, thisDevice: state.deviceID)
            guard !state.clock.isWithinBounds(reference: reference) else { return false }
            let inRange = { (time: HybridTimestamp) in
                HybridLogicalClock(wall: time.wall, logical: time.logical).isWithinBounds(reference: reference)
            }
            var hlc = HybridLogicalClock.zero
            for time in records.flatMap(\.clocks.values) where inRange(time) { hlc.receive(time) }
            for var record in records where record.clocks.values.contains(where: { !inRange($0) }) {
                let time = hlc.tick(physical: physicalNow, device: state.deviceID)
                for (field, old) in record.clocks where !inRange(old) { record.clocks[field] = time }
                record.pending = true
                try db.update(record)
            }
            state.clock = hlc
            try db.update(state)
            return true
        }
    }

    /// How far ahead of this device's system clock another device's clock is
    /// still taken as the time: a clock set back by up to this much is not
    /// mistaken for a poisoned one. Far beyond it lies only a poisoned stamp.
    static let trustedLead: Int64 = 30 * 86_400_000

    /// The time to judge this device's clock by: its system clock, or the
    /// newest stamp of another device, if later and within `trustedLead`.
    static func clockReference(physicalNow: Int64, records: [SyncStore.ClockRecord], thisDevice: String) -> Int64 {
        let limit = HybridLogicalClock.latestAcceptableWall(physicalNow: physicalNow) &+ trustedLead
        let others = records.flatMap(\.clocks.values).filter { $0.device != thisDevice && $0.wall <= limit }
        return max(physicalNow, others.map(\.wall).max() ?? physicalNow)
    }
}
