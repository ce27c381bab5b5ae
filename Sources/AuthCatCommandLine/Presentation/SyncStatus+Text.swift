import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// The `sync status` report for people: the summary first, then one line per fact.
extension SyncStatus {
    /// The report's lines; dates as `Timestamp` shows them.
    func textLines() -> [String] {
        let date = Timestamp.text
        var lines = ["sync: \(summary.rawValue)"]
        if let message { lines.append("  \(message)") }
        guard local.isEnabled || local.remoteDeleted || local.vaultMismatch || local.stateProblem != nil
                || setup.state != .notStarted else { return lines }
        if let remote = local.remoteLocation { lines.append("remote: \(remote)") }
        for (name, phase) in [("setup", setup), ("import", self.import), ("export", export)] {
            lines.append("\(name): \(Self.describe(phase, date: date))")
        }
        lines.append("last successful sync: \(lastSuccessfulSync.map(date) ?? "never")")
        if let pending = local.pendingLocalChanges { lines.append("pending local changes: \(pending)") }
        if let batches = local.batchesSinceSnapshot {
            lines.append("batches since snapshot: \(batches)" + (local.compactionDue ? " (compaction due)" : ""))
        }
        if !local.rejectedObjects.isEmpty {
            lines.append("rejected objects: \(local.rejectedObjects.count) (skipped while they stay the same)")
            lines += local.rejectedObjects.map { "  \($0.name): \($0.kind.rawValue) since \(date($0.firstSeen)): \($0.detail)" }
        }
        if !local.standingIssues.isEmpty {
            lines.append("problems found by the latest sync: \(local.standingIssues.count)")
            lines += local.standingIssues.map {
                "  \($0.kind.rawValue): \(deviceName($0.subject)) since \(date($0.firstSeen)): \($0.detail)"
            }
        }
        if !local.devicesSeen.isEmpty {
            lines.append("devices seen: \(local.devicesSeen.count)")
            lines += local.devicesSeen.map { "  \(Self.describe($0, date: date))" }
        }
        if case .failed(let failure)? = probe, failure.message != message {
            lines.append("remote check: \(failure.message)")
        }
        return lines
    }

    private static func describe(_ phase: SyncPhaseState, date: (Date) -> String) -> String {
        var text = phase.state.rawValue
        switch phase.state {
        case .notStarted: break
        case .inProgress, .interrupted: text += phase.started.map { " since \(date($0))" } ?? ""
        case .succeeded, .failed: text += (phase.ended ?? phase.started).map { " at \(date($0))" } ?? ""
        }
        if let failure = phase.failure { text += ": \(failure.message)" }
        return text
    }

    private static func describe(_ device: SyncDeviceSeen, date: (Date) -> String) -> String {
        var text = device.name + (device.isThisDevice ? " (this device)" : "")
        if let lastSeen = device.lastSeen { text += ", last seen \(date(lastSeen))" }
        return text
    }
}
