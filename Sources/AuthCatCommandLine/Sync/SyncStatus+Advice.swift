import AuthCatEssentials
import AuthCatSync

extension SyncStatus {
    /// The status as the command line shows it (text, JSON, `doctor`): every
    /// next step the monitor named is worded into the message it belongs to.
    var advised: SyncStatus {
        var status = self
        status.message = message.map { NextStep.advised($0, nextStep) } ?? nextStep?.advice
        status.nextStep = nil
        status.setup.failure = setup.failure?.advised
        status.import.failure = self.import.failure?.advised
        status.export.failure = export.failure?.advised
        status.local.stateProblem = local.stateProblem?.advised
        if case .failed(let failure)? = probe { status.probe = .failed(failure.advised) }
        return status
    }
}

extension SyncFailure {
    /// The failure with its next step worded into the message.
    var advised: SyncFailure {
        SyncFailure(category: category, message: NextStep.advised(message, nextStep))
    }
}
