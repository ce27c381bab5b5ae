import AuthCatEssentials
import Foundation

extension SyncStatus {
    /// Folds the monitor's events, the local sync state and an optional live probe into one status.
    ///
    /// Import and export events older than the latest successful setup are
    /// ignored, so a previous time sync was on does not count. The summary
    /// is decided in this order: flags the engine set (remote deleted, vault
    /// mismatch), a setup running now, sync off, a failed probe, a phase
    /// running now, the newest failure, nothing run yet, nothing imported since
    /// setup, and finally success.
    public static func fold(
        events: [SyncEvent], local: SyncLocalState, probe: SyncProbeResult?,
        now: Date, policy: SyncStatus.Policy = SyncStatus.Policy()
    ) -> SyncStatus {
        let ordered = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
        let setupEvents = ordered.filter { $0.phase == .setup }
        let epoch = setUpSince(setupEvents)
        let current = ordered.filter { event in event.phase != .setup && epoch.map { event.time >= $0 } ?? true }
        var status = SyncStatus(
            summary: .off, local: local,
            lastSuccessfulSync: local.lastSuccessfulSync
                ?? ordered.last { $0.phase == .export && $0.kind == .succeeded }?.time,
            probe: probe)
        status.setup = SyncStatus.PhaseFolding(policy: policy, now: now).fold(setupEvents)
        status.import = SyncStatus.PhaseFolding(policy: policy, now: now).fold(
            current.filter { $0.phase == SyncEvent.Phase.import })
        status.export = SyncStatus.PhaseFolding(policy: policy, now: now).fold(
            current.filter { $0.phase == SyncEvent.Phase.export })
        (status.summary, status.message, status.nextStep) = status.summarize(isSetUp: epoch != nil)
        return status
    }

    /// The status as this device last recorded it, without contacting the
    /// remote, for `doctor` and the notice; a state that cannot be read is the
    /// problem it reports (`sync status` fails on it instead).
    public static func recorded(in location: VaultLocation, now: Date) -> SyncStatus {
        let local: SyncLocalState
        do {
            local = try SyncState.localState(in: location)
        } catch {
            var unreadable = SyncLocalState.off
            unreadable.stateProblem = SyncFailure(error)
            local = unreadable
        }
        let events = (try? SyncEventLog(location: location).events()) ?? []
        return fold(events: events, local: local, probe: nil, now: now)
    }

    /// When the latest successful setup started, or nil if none is recorded.
    static func setUpSince(_ setupEvents: [SyncEvent]) -> Date? {
        guard let index = setupEvents.lastIndex(where: { $0.kind == .succeeded }) else { return nil }
        let end = setupEvents[index]
        let start = setupEvents[..<index].last { $0.kind == .started && $0.processID == end.processID }
        return start?.time ?? end.time
    }

    /// The summary, why, and what to do.
    private typealias Verdict = (SyncStatus.Summary, String?, NextStep?)

    private func summarize(isSetUp: Bool) -> Verdict {
        if let problem = local.stateProblem { return (.error, problem.message, problem.nextStep) }
        if local.revoked { return (.revoked, Self.revokedMessage, nil) }
        if local.remoteDeleted { return (.remoteDeleted, Self.remoteDeletedMessage, .enableSync) }
        if local.vaultMismatch { return (.vaultMismatch, Self.vaultMismatchMessage, .switchRemote) }
        if setup.state == .inProgress { return (.inProgress, "sync is being set up", nil) }
        guard local.isEnabled else {
            if setup.state == .interrupted {
                return (.off, "sync is off: its setup was interrupted before it finished", .enableSync)
            }
            return (.off, local.disabledEverywhere ? Self.disabledElsewhereMessage : "sync is off", .enableSync)
        }
        if case .failed(let failure)? = probe {
            // Seen, not yet confirmed with the key: the message says so.
            if failure.category == .remoteDeleted { return (.remoteDeleted, failure.message, failure.nextStep) }
            return Self.summary(for: failure, remoteAnswers: false)
        }
        // Before "in progress": a problem on the remote stands until it is repaired, whatever runs now.
        if let problems = remoteProblems() { return (.error, problems, .repairRemote) }
        if self.import.state == .inProgress || export.state == .inProgress { return (.inProgress, nil, nil) }
        if let failure = newestFailure() { return Self.summary(for: failure, remoteAnswers: probe == .reachable) }
        if !isSetUp && self.import.state == .notStarted && export.state == .notStarted {
            return (.notStarted, "sync is on but has not run yet", .syncNow)
        }
        if isSetUp && self.import.state == .notStarted {
            return (.notSyncing, "sync was set up but nothing was imported since", .syncNow)
        }
        return (.succeeded, nil, local.compactionDue ? .compact : nil)
    }

    /// One sentence on the rejected objects and standing issues, or nil when there are none.
    private func remoteProblems() -> String? {
        let rejected = local.rejectedObjects.count
        let issues = local.standingIssues
        guard rejected + issues.count > 0 else { return nil }
        var parts: [String] = []
        if rejected > 0 { parts.append("\(rejected) rejected object\(rejected == 1 ? "" : "s")") }
        for kind in [SyncReport.IntegrityIssue.Kind.rollback, .gap, .blocked, .rejected, .replayed] {
            let devices = issues.filter { $0.kind == kind }.map { deviceName($0.subject) }
            guard !devices.isEmpty else { continue }
            switch kind {
            case .rollback: parts.append("a rollback of device \(devices.joined(separator: ", "))")
            case .gap: parts.append("a gap in the batches of device \(devices.joined(separator: ", "))")
            case .blocked:
                parts.append("batches of device \(devices.joined(separator: ", ")) waiting behind a rejected object")
            case .rejected, .replayed: parts.append(contentsOf: issues.filter { $0.kind == kind }.map(\.detail))
            }
        }
        return "the remote has problems: " + parts.joined(separator: "; ")
            + ". Everything else still syncs. They clear once the remote is repaired and a sync finds it whole"
    }

    /// A device's name as last seen (what would not show written out), with its id; the id alone when unknown.
    public func deviceName(_ id: String) -> String {
        guard let device = local.devicesSeen.first(where: { $0.id == id }), let name = device.name, name != id else {
            return id
        }
        return "\(device.displayName) (\(id))" + (device.isThisDevice ? ", this device" : "")
    }

    /// The failure of whichever of import and export failed last, if the latest run of either did.
    private func newestFailure() -> SyncFailure? {
        // Typed step by step: as one chained expression, this took the type
        // checker seconds of every build.
        let phases: [PhaseState] = [self.import, export]
        let failed = phases.filter { $0.state == .failed || $0.state == .interrupted }
        let newest = failed.max { (first: PhaseState, second: PhaseState) -> Bool in
            (first.latest ?? Date.distantPast) < (second.latest ?? Date.distantPast)
        }
        return newest?.failure
    }

    private static func summary(for failure: SyncFailure, remoteAnswers: Bool) -> Verdict {
        let connectivity: Set<SyncFailure.Category> = [.unreachable, .credentialsRejected, .containerMissing]
        if remoteAnswers, connectivity.contains(failure.category) {
            return (.error, "the last sync failed (\(failure.message)), but the remote answers now", .syncNow)
        }
        switch failure.category {
        case .unreachable: return (.noNetwork, failure.message, failure.nextStep)
        case .credentialsRejected, .containerMissing: return (.accountNotAvailable, failure.message, failure.nextStep)
        case .remoteDeleted: return (.remoteDeleted, remoteDeletedMessage, .enableSync)
        case .revoked: return (.revoked, revokedMessage, nil)
        case .vaultMismatch: return (.vaultMismatch, vaultMismatchMessage, .switchRemote)
        case .disabledElsewhere, .wrongPassphrase, .integrity, .other:
            return (.error, failure.message, failure.nextStep)
        }
    }

    static let disabledElsewhereMessage = "sync was turned off from another device; local data is kept"
    static let revokedMessage =
        "a key rotation on another device revoked this device: it no longer syncs, and local data is kept "
        + "('authcat sync disable' acknowledges it)"
    static let remoteDeletedMessage = "another device deleted the remote data; local data is kept"
    static let vaultMismatchMessage =
        "the remote now holds a different vault than the one this device joined; "
        + "sync stopped and local data is kept"
}
