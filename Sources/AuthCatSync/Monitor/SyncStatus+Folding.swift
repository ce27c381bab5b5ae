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
    public static func fold(events: [SyncEvent], local: SyncLocalState, probe: SyncProbeResult?,
                            now: Date, policy: SyncStatusPolicy = SyncStatusPolicy()) -> SyncStatus {
        let ordered = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        let setupEvents = ordered.filter { $0.phase == .setup }
        let epoch = setUpSince(setupEvents)
        let current = ordered.filter { event in event.phase != .setup && epoch.map { event.time >= $0 } ?? true }
        var status = SyncStatus(
            summary: .off, local: local,
            lastSuccessfulSync: local.lastSuccessfulSync ?? ordered.last { $0.phase == .export && $0.kind == .succeeded }?.time,
            probe: probe)
        status.setup = SyncPhaseFolding(policy: policy, now: now).fold(setupEvents)
        status.import = SyncPhaseFolding(policy: policy, now: now).fold(current.filter { $0.phase == SyncEvent.Phase.import })
        status.export = SyncPhaseFolding(policy: policy, now: now).fold(current.filter { $0.phase == SyncEvent.Phase.export })
        (status.summary, status.message) = status.summarize(isSetUp: epoch != nil)
        return status
    }

    /// When the latest successful setup started, or nil if none is recorded.
    static func setUpSince(_ setupEvents: [SyncEvent]) -> Date? {
        guard let index = setupEvents.lastIndex(where: { $0.kind == .succeeded }) else { return nil }
        let end = setupEvents[index]
        let start = setupEvents[..<index].last { $0.kind == .started && $0.processID == end.processID }
        return start?.time ?? end.time
    }

    private func summarize(isSetUp: Bool) -> (SyncSummary, String?) {
        if local.remoteDeleted { return (.remoteDeleted, Self.remoteDeletedAdvice) }
        if local.vaultMismatch { return (.vaultMismatch, Self.vaultMismatchAdvice) }
        if setup.state == .inProgress { return (.inProgress, "sync is being set up") }
        guard local.isEnabled else { return (.off, local.disabledEverywhere ? Self.disabledElsewhereAdvice : Self.offAdvice) }
        if case .failed(let failure)? = probe { return Self.summary(for: failure, remoteAnswers: false) }
        if self.import.state == .inProgress || export.state == .inProgress { return (.inProgress, nil) }
        if let failure = newestFailure() { return Self.summary(for: failure, remoteAnswers: probe == .reachable) }
        if !isSetUp && self.import.state == .notStarted && export.state == .notStarted {
            return (.notStarted, "sync is on but has not run yet; run: authcat sync now")
        }
        if isSetUp && self.import.state == .notStarted {
            return (.notSyncing, "sync was set up but nothing was imported since; run: authcat sync now")
        }
        return (.succeeded, nil)
    }

    /// The failure of whichever of import and export failed last, if the latest run of either did.
    private func newestFailure() -> SyncFailure? {
        [self.import, export]
            .filter { $0.state == .failed || $0.state == .interrupted }
            .max { ($0.latest ?? .distantPast) < ($1.latest ?? .distantPast) }?
            .failure
    }

    private static func summary(for failure: SyncFailure, remoteAnswers: Bool) -> (SyncSummary, String?) {
        let connectivity: Set<SyncFailure.Category> = [.unreachable, .credentialsRejected, .containerMissing]
        if remoteAnswers, connectivity.contains(failure.category) {
            return (.error, "the last sync failed (\(failure.message)), but the remote answers now; run: authcat sync now")
        }
        switch failure.category {
        case .unreachable: return (.noNetwork, failure.message)
        case .credentialsRejected, .containerMissing: return (.accountNotAvailable, failure.message)
        case .remoteDeleted: return (.remoteDeleted, remoteDeletedAdvice)
        case .vaultMismatch: return (.vaultMismatch, vaultMismatchAdvice)
        case .disabledElsewhere, .wrongPassphrase, .integrity, .other: return (.error, failure.message)
        }
    }

    static let offAdvice = "sync is off; to turn it on, run: authcat sync enable --remote URL"
    static let disabledElsewhereAdvice = "sync was turned off from another device; local data is kept. To turn it on again, run: authcat sync enable --remote URL"
    static let remoteDeletedAdvice = "another device deleted the remote data; local data is kept. To sync again, run: authcat sync enable --remote URL"
    static let vaultMismatchAdvice = "the remote now holds a different vault than the one this device joined; sync stopped and local data is kept. Run authcat sync disable, then authcat sync enable with the right remote"
}
