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
        guard
            local.isEnabled || local.remoteDeleted || local.vaultMismatch || local.revoked || local.stateProblem != nil
                || setup.state != .notStarted
        else { return lines }
        if let remote = local.remoteLocation { lines.append("remote: \(remote)") }
        if let kind = Self.remoteKindLine(local) { lines.append(kind) }
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
            lines += local.rejectedObjects.map {
                "  \($0.name): \($0.kind.rawValue) since \(date($0.firstSeen)): \($0.detail)"
            }
        }
        if !local.standingIssues.isEmpty {
            lines.append("problems found by the latest sync: \(local.standingIssues.count)")
            lines += local.standingIssues.map {
                "  \($0.kind.rawValue): \(deviceName($0.subject)) since \(date($0.firstSeen)): \($0.detail)"
            }
        }
        if !local.devicesSeen.isEmpty {
            lines.append("devices seen: \(local.devicesSeen.count)")
            lines += DeviceTable.lines(local.devicesSeen).map { "  " + $0 }
        }
        if case .failed(let failure)? = probe, failure.message != message {
            lines.append("remote check: \(failure.message)")
        }
        return lines
    }

    private static func describe(_ phase: SyncStatus.PhaseState, date: (Date) -> String) -> String {
        var text = phase.state.rawValue
        switch phase.state {
        case .notStarted: break
        case .inProgress, .interrupted: text += phase.started.map { " since \(date($0))" } ?? ""
        case .succeeded, .failed: text += (phase.ended ?? phase.started).map { " at \(date($0))" } ?? ""
        }
        if let failure = phase.failure { text += ": \(failure.message)" }
        return text
    }

}

/// The `sync status --short` line for status bars and prompts.
extension SyncStatus {
    /// The most columns the short line takes, so that it fits a bar or a prompt.
    static let shortLineWidth = 40

    /// One line of at most `shortLineWidth` columns: `synced 3m ago`,
    /// `3 changes waiting`, `error: rollback`, `off`. A problem names its
    /// kind; a healthy vault says how fresh it is or what waits to go out.
    func shortLine(now: Date) -> String {
        let line: String
        switch summary {
        case .succeeded:
            if let pending = local.pendingLocalChanges, pending > 0 {
                line = pending == 1 ? "1 change waiting" : "\(pending) changes waiting"
            } else {
                line = lastSuccessfulSync.map { "synced \(Self.age(from: $0, to: now)) ago" } ?? "synced"
            }
        case .inProgress: line = "syncing"
        case .error: line = "error: \(errorKind)"
        default: line = summary.rawValue
        }
        return String(TerminalText.sanitized(line).prefix(Self.shortLineWidth))
    }

    /// The first thing that makes the status an error, in a word or two.
    private var errorKind: String {
        if let issue = local.standingIssues.first { return issue.kind.rawValue }
        if let object = local.rejectedObjects.first { return object.kind.rawValue }
        if local.stateProblem != nil { return "sync state" }
        let failure = [setup, self.import, export].compactMap(\.failure).first
        switch failure?.category {
        case .integrity: return "integrity"
        case .wrongPassphrase: return "wrong passphrase"
        case .disabledElsewhere: return "disabled elsewhere"
        case .unreachable: return "unreachable"
        case .credentialsRejected: return "credentials"
        case .containerMissing: return "remote missing"
        case .remoteDeleted: return "remote deleted"
        case .vaultMismatch: return "vault mismatch"
        case .revoked: return "revoked"
        case .other, nil: return phaseInError ?? "failed"
        }
    }

    /// The phase whose failure or interruption made the status an error.
    private var phaseInError: String? {
        for (name, phase) in [("setup", setup), ("import", self.import), ("export", export)]
        where phase.state == .failed || phase.state == .interrupted {
            return "\(name) \(phase.state.rawValue)"
        }
        return nil
    }

    /// A compact age: `12s`, `3m`, `2h`, `5d`.
    static func age(from then: Date, to now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(then)))
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        default: return "\(seconds / 86_400)d"
        }
    }

    /// The kind of remote, and whether it refuses a second write of an object (a WebDAV server may not).
    private static func remoteKindLine(_ local: SyncLocalState) -> String? {
        guard let kind = local.remoteKind else { return nil }
        switch local.createOnlyEnforced {
        case false?: return "remote kind: \(kind), create-only writes not enforced by the server"
        case true?: return "remote kind: \(kind), create-only writes enforced"
        case nil: return "remote kind: \(kind)"
        }
    }
}

extension SyncStatus {
    /// The status as the command line shows it (text, JSON, `doctor`): every
    /// next step the monitor named is worded into the message it belongs to.
    var advised: SyncStatus {
        var status = self
        status.message = message.map { NextStep.advised($0, nextStep) } ?? nextStep?.advice
        status.nextStep = nil
        status.setup.failure = setup.failure.map(Self.advised)
        status.import.failure = self.import.failure.map(Self.advised)
        status.export.failure = export.failure.map(Self.advised)
        status.local.stateProblem = local.stateProblem.map(Self.advised)
        if case .failed(let failure)? = probe { status.probe = .failed(Self.advised(failure)) }
        return status
    }

    /// `failure` with its next step worded into the message.
    static func advised(_ failure: SyncFailure) -> SyncFailure {
        SyncFailure(category: failure.category, message: NextStep.advised(failure.message, failure.nextStep))
    }
}
