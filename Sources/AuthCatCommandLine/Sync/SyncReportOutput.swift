import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// How `sync now` (and `sync enable`, `sync watch`) show what a sync did.
enum SyncReportOutput {
    /// Lines for people: counts first, then each rejected object, warning and preference change.
    static func lines(_ report: SyncReport) -> [String] {
        var lines = [
            "imported \(plural(report.importedChanges, "change")), exported \(plural(report.exportedChanges, "change"))"
        ]
        lines += report.rejectedObjects.map {
            "rejected \(TerminalText.sanitized($0.subject)): \(TerminalText.sanitized($0.detail))"
        }
        lines += report.chainWarnings.map {
            "warning: \($0.kind.rawValue) for device \(TerminalText.sanitized($0.subject)): \(TerminalText.sanitized($0.detail))"
        }
        if let renamed = report.deviceRenamed {
            lines.append(
                TerminalText.sanitized(
                    "this device is now named '\(renamed.to)': another device of the remote vault is named '\(renamed.from)'"
                ))
        }
        lines += report.preferenceChanges.map {
            "preference \(TerminalText.sanitized($0.key).debugDescription) changed: \(reasonText($0.reason))"
        }
        lines += report.replacedEdits.map(replacedEditLine)
        return lines
    }

    /// One offline edit a newer change replaced: the account, the field and the winning device, never a value.
    static func replacedEditLine(_ edit: SyncReport.ReplacedEdit) -> String {
        let label = edit.issuer.isEmpty ? edit.name : "\(edit.issuer):\(edit.name)"
        return TerminalText.sanitized(
            "\(label): your offline change of \(edit.field) was replaced by a newer one from "
                + "\(edit.deviceName ?? edit.deviceID) (history keeps both)")
    }

    /// What `sync compact` did, in one line.
    static func compactionLine(_ report: SyncReport) -> String {
        guard report.snapshotWritten else { return "nothing to compact: no batch since the last snapshot" }
        return "compacted: wrote one snapshot, removed \(plural(report.objectsRemoved, "older object"))"
    }

    /// The hint `sync now` prints on standard error when compaction is due, else nil.
    static func compactionHint(_ report: SyncReport) -> String? {
        guard report.compactionDue else { return nil }
        return "\(report.batchesSinceSnapshot) batches since this device's last snapshot; "
            + "run 'authcat sync compact' to make joining and catching up faster"
    }

    /// The `--json` document.
    static func json(_ report: SyncReport) throws -> String {
        try JSONOutput.string(SyncReportDocument(report))
    }

    static func reasonText(_ reason: SyncReport.PreferenceChange.Reason) -> String {
        switch reason {
        case .serverChange: "server change"
        case .initialSync: "initial sync"
        case .quotaViolation: "quota violation"
        case .accountChange: "account change"
        }
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
