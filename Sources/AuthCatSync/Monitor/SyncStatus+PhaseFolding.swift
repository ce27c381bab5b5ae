import Foundation

extension SyncStatus {
    /// Folds the events of one phase into its state.
    ///
    /// Starts are matched to ends by process id, so that two processes syncing
    /// at once (a background push and `sync now`) do not close each other's runs.
    struct PhaseFolding {
        let policy: SyncStatus.Policy
        let now: Date

        /// `events` must be of one phase and in time order.
        func fold(_ events: [SyncEvent]) -> SyncStatus.PhaseState {
            var open: [Int32?: SyncEvent] = [:]
            var lastRun: (start: SyncEvent?, end: SyncEvent)?
            for event in events {
                if event.kind == .started {
                    open[event.processID] = event
                } else {
                    lastRun = (open.removeValue(forKey: event.processID), event)
                }
            }
            if let running = open.values.filter(isRunning).max(by: { $0.time < $1.time }) {
                return SyncStatus.PhaseState(state: .inProgress, started: running.time)
            }
            if let abandoned = open.values.max(by: { $0.time < $1.time }),
                abandoned.time >= (lastRun?.end.time ?? .distantPast)
            {
                return SyncStatus.PhaseState(
                    state: .interrupted, started: abandoned.time, failure: interruption(of: abandoned))
            }
            guard let lastRun else { return .notStarted }
            return SyncStatus.PhaseState(
                state: lastRun.end.kind == .succeeded ? .succeeded : .failed,
                started: lastRun.start?.time, ended: lastRun.end.time,
                failure: lastRun.end.kind == .failed
                    ? lastRun.end.failure ?? SyncFailure(category: .other, message: "failed for an unknown reason")
                    : nil)
        }

        private func isRunning(_ start: SyncEvent) -> Bool {
            let alive = start.processID.map(policy.isProcessAlive) ?? true
            return alive && now.timeIntervalSince(start.time) < policy.staleAfter
        }

        private func interruption(of start: SyncEvent) -> SyncFailure {
            let minutes = Int(policy.staleAfter / 60)
            let alive = start.processID.map(policy.isProcessAlive) ?? true
            guard !alive else {
                return SyncFailure(
                    category: .other,
                    message: "the \(start.phase.rawValue) started more than \(minutes) minutes ago has not finished")
            }
            // A setup that stopped (Ctrl-C at a join) left sync off: only setting it up again goes on.
            return SyncFailure(
                category: .other,
                message: "the \(start.phase.rawValue) was interrupted: its process stopped "
                    + "before it finished", nextStep: start.phase == .setup ? .enableSync : .syncNow)
        }
    }
}
