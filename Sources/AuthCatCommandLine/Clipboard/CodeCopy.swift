import AuthCatCore
import AuthCatEssentials
import Foundation

/// `--copy` for `code` and `pick`: the code on the clipboard, and taken off
/// again when it expires by a detached clearer that puts back what the
/// clipboard held before (`ClipboardClearer`), unless `--keep` or the
/// setting `clipboard.keep` says to leave it.
struct CodeCopy {
    var invocation: Invocation
    /// `--keep`: leave the code on the clipboard.
    var keep: Bool

    /// Copies `code`. A failure is a warning, not a failure: the code the
    /// user asked for was shown or typed already, and with HOTP its counter
    /// value is used up.
    func copy(_ code: OTPCode, computedAt now: Date, to clipboard: Clipboard, vault: Vault) {
        let output = invocation.output
        let keep = self.keep || (try? vault.setting(ConfigKey.clipboardKeep)) == "true"
        // Read first, to be put back; nothing readable (an empty clipboard) is put back as nothing.
        var previous = keep ? [] : (try? clipboard.contents()) ?? []
        defer { Wipe.bytes(&previous) }
        do {
            try clipboard.copy(code.value)
        } catch {
            output.warning("\(error)")
            return
        }
        guard !keep else { return copied("; it stays there (--keep)") }
        let hold = ClipboardClearer.hold(for: code, computedAt: now, environment: invocation.environment)
        do {
            try ClipboardClearer.schedule(
                code.value, on: clipboard, previous: previous,
                clearAt: invocation.now.addingTimeInterval(hold), launcher: invocation.launcher)
        } catch {
            output.warning("\(error)")
            return
        }
        copied("; cleared in \(Int(hold.rounded(.up)).counted("second"))")
    }

    /// On a terminal the printed code does not say it was copied, so a note
    /// does; piped, standard output is the code alone and nothing is added.
    private func copied(_ detail: String) {
        guard invocation.terminal.standardOutputIsTerminal else { return }
        invocation.output.note("copied to the clipboard" + detail)
    }
}
