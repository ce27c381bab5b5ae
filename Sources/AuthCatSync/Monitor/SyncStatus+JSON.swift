import AuthCatCore
import AuthCatEssentials
import Foundation

/// The `sync status --json` document.
///
/// Every key is always present (null when unknown), so scripts can rely on
/// the shape. Print it with `JSONOutput`, like every `--json` document.
extension SyncStatus: Encodable {
    /// snake_case, like every `--json` document (docs/JSON.md).
    private enum Key: String, CodingKey {
        case summary, healthy, message, enabled, remote, phases, probe, kind, detail, subject
        case setup, `import`, export, state, started, ended, error, category, reachable, id, name
        case exitCode = "exit_code"
        case lastSuccessfulSync = "last_successful_sync"
        case pendingLocalChanges = "pending_local_changes"
        case batchesSinceSnapshot = "batches_since_snapshot"
        case compactionDue = "compaction_due"
        case rejectedObjects = "rejected_objects"
        case standingIssues = "standing_issues"
        case stateProblem = "state_problem"
        case devicesSeen = "devices_seen"
        case remoteDeleted = "remote_deleted"
        case vaultMismatch = "vault_mismatch"
        case disabledEverywhere = "disabled_everywhere"
        case revoked
        case firstSeen = "first_seen"
        case remoteKind = "remote_kind"
        case createOnlyEnforced = "create_only_enforced"
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(summary.rawValue, forKey: .summary)
        try container.encode(summary.isHealthy, forKey: .healthy)
        try container.encode(summary.exitCode, forKey: .exitCode)
        try container.encode(message, forKey: .message)
        try container.encode(local.isEnabled, forKey: .enabled)
        try container.encode(local.remoteLocation, forKey: .remote)
        try container.encode(local.remoteKind, forKey: .remoteKind)
        try container.encode(local.createOnlyEnforced, forKey: .createOnlyEnforced)
        var phases = container.nestedContainer(keyedBy: Key.self, forKey: .phases)
        for (key, phase) in [(Key.setup, setup), (.import, self.import), (.export, export)] {
            try Self.encode(phase, into: phases.nestedContainer(keyedBy: Key.self, forKey: key))
        }
        try container.encode(lastSuccessfulSync, forKey: .lastSuccessfulSync)
        try container.encode(local.pendingLocalChanges, forKey: .pendingLocalChanges)
        try container.encode(local.batchesSinceSnapshot, forKey: .batchesSinceSnapshot)
        try container.encode(local.compactionDue, forKey: .compactionDue)
        var rejected = container.nestedUnkeyedContainer(forKey: .rejectedObjects)
        for object in local.rejectedObjects {
            try Self.encode(object, into: rejected.nestedContainer(keyedBy: Key.self))
        }
        var issues = container.nestedUnkeyedContainer(forKey: .standingIssues)
        for issue in local.standingIssues {
            var nested = issues.nestedContainer(keyedBy: Key.self)
            try nested.encode(issue.kind.rawValue, forKey: .kind)
            try nested.encode(issue.subject, forKey: .subject)
            try nested.encode(issue.detail, forKey: .detail)
            try nested.encode(issue.firstSeen, forKey: .firstSeen)
        }
        try container.encode(local.stateProblem?.message, forKey: .stateProblem)
        var devices = container.nestedUnkeyedContainer(forKey: .devicesSeen)
        for device in local.devicesSeen {
            try devices.encode(device.jsonDocument)
        }
        try container.encode(local.remoteDeleted, forKey: .remoteDeleted)
        try container.encode(local.vaultMismatch, forKey: .vaultMismatch)
        try container.encode(local.disabledEverywhere, forKey: .disabledEverywhere)
        try container.encode(local.revoked, forKey: .revoked)
        try encodeProbe(into: &container)
    }

    private static func encode(_ phase: SyncStatus.PhaseState, into container: KeyedEncodingContainer<Key>) throws {
        var container = container
        try container.encode(phase.state.rawValue, forKey: .state)
        try container.encode(phase.started, forKey: .started)
        try container.encode(phase.ended, forKey: .ended)
        try encode(phase.failure, into: &container, forKey: .error)
    }

    private static func encode(
        _ object: SyncLocalState.RejectedObject, into container: KeyedEncodingContainer<Key>
    ) throws {
        var container = container
        try container.encode(object.name, forKey: .name)
        try container.encode(object.kind.rawValue, forKey: .kind)
        try container.encode(object.detail, forKey: .detail)
        try container.encode(object.firstSeen, forKey: .firstSeen)
    }

    private static func encode(
        _ failure: SyncFailure?, into container: inout KeyedEncodingContainer<Key>, forKey key: Key
    ) throws {
        guard let failure else { return try container.encodeNil(forKey: key) }
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: key)
        try nested.encode(failure.category.rawValue.snakeCased, forKey: .category)
        try nested.encode(failure.message, forKey: .message)
    }

    private func encodeProbe(into container: inout KeyedEncodingContainer<Key>) throws {
        guard let probe else { return try container.encodeNil(forKey: .probe) }
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: .probe)
        switch probe {
        case .reachable:
            try nested.encode(true, forKey: .reachable)
            try nested.encodeNil(forKey: .error)
        case .failed(let failure):
            try nested.encode(false, forKey: .reachable)
            try Self.encode(failure, into: &nested, forKey: .error)
        }
    }
}
