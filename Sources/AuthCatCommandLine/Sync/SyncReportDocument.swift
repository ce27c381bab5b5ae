import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// The JSON form of a `SyncReport`, with keys in a fixed order.
struct SyncReportDocument: Encodable {
    struct Issue: Encodable {
        var kind: String
        var subject: String
        var detail: String
    }

    struct PreferenceChange: Encodable {
        var key: String
        var reason: String
    }

    /// An offline edit a newer change replaced (`SyncReport.ReplacedEdit`).
    struct ReplacedEdit: Encodable {
        var account: String
        var issuer: String
        var name: String
        var field: String
        var device: String
        @NullWhenAbsent var deviceName: String?

        enum CodingKeys: String, CodingKey {
            case account, issuer, name, field, device
            case deviceName = "device_name"
        }
    }

    var imported: Int
    var exported: Int
    var objectsWritten: Int
    var bytesWritten: Int
    var requests: Int
    var snapshotWritten: Bool
    var objectsRemoved: Int
    var batchesSinceSnapshot: Int64
    var compactionDue: Bool
    var rejected: [Issue]
    var warnings: [Issue]
    var preferenceChanges: [PreferenceChange]
    var replacedEdits: [ReplacedEdit]
    var devicesSeen: [DeviceDirectory.Device.JSONDocument]

    enum CodingKeys: String, CodingKey {
        case imported, exported, requests, rejected, warnings
        case objectsWritten = "objects_written"
        case bytesWritten = "bytes_written"
        case snapshotWritten = "snapshot_written"
        case objectsRemoved = "objects_removed"
        case batchesSinceSnapshot = "batches_since_snapshot"
        case compactionDue = "compaction_due"
        case preferenceChanges = "preference_changes"
        case replacedEdits = "replaced_edits"
        case devicesSeen = "devices_seen"
    }

    init(_ report: SyncReport) {
        imported = report.importedChanges
        exported = report.exportedChanges
        objectsWritten = report.objectsWritten
        bytesWritten = report.bytesWritten
        requests = report.requests
        snapshotWritten = report.snapshotWritten
        objectsRemoved = report.objectsRemoved
        batchesSinceSnapshot = report.batchesSinceSnapshot
        compactionDue = report.compactionDue
        rejected = report.rejectedObjects.map { Issue(kind: $0.kind.rawValue, subject: $0.subject, detail: $0.detail) }
        warnings = report.chainWarnings.map { Issue(kind: $0.kind.rawValue, subject: $0.subject, detail: $0.detail) }
        preferenceChanges = report.preferenceChanges.map {
            PreferenceChange(key: $0.key, reason: $0.reason.rawValue.snakeCased)
        }
        replacedEdits = report.replacedEdits.map {
            ReplacedEdit(
                account: $0.accountID.vaultString, issuer: $0.issuer, name: $0.name, field: $0.field,
                device: $0.deviceID, deviceName: $0.deviceName)
        }
        devicesSeen = report.devicesSeen.map(\.jsonDocument)
    }
}
