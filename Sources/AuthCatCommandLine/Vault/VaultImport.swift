import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange

/// Bringing parsed accounts into the vault for `import` and `restore-backup`:
/// the plan against the vault (or an empty one), the import itself, and the
/// summary both commands print.
struct VaultImport {
    var invocation: Invocation
    var options: VaultOptions

    /// Plans against the vault (or, when there is none yet, an empty one),
    /// and unless `dryRun` imports, creating the vault only when something
    /// is added. A refused import changes nothing and is returned, for
    /// `report` to show and throw.
    func importing(
        _ parsed: ParsedImport, author: HistoryAuthor, dryRun: Bool, skipInvalid: Bool
    ) throws -> ImportOutcome {
        let existing = try options.openExistingVault(in: invocation)
        if existing == nil {
            let plan = try Importer.planForEmptyVault(parsed, skipInvalid: skipInvalid)
            guard plan.refusal == nil, !dryRun, plan.changesVault else {
                return ImportOutcome(plan: plan, added: [], dryRun: dryRun)
            }
        }
        let vault = try existing ?? options.openOrCreateVault(in: invocation)
        let outcome = try Importer(vault: vault, author: author).run(
            parsed, dryRun: dryRun, skipInvalid: skipInvalid)
        if outcome.plan.refusal == nil, !outcome.dryRun, outcome.plan.changesVault {
            VaultChangeHook.vaultDidChange(vault, in: invocation)
        }
        if existing == nil, try !vault.hasPassphrase() {
            // The accounts came from a file that may have been protected; say that they no longer are.
            invocation.output.warning("the new vault has no passphrase; 'authcat passphrase set' protects it")
        }
        return outcome
    }

    /// Prints what an import or restore did: a summary line with counts,
    /// each rejected entry, and with `verbose` each skipped one (and, for a
    /// dry run, each one to add); warnings go to standard error. `--json`
    /// prints every entry. A refused import is reported, then thrown.
    /// - Parameters:
    ///   - verbs: what the summary says for a dry run and for a real one.
    ///   - refusalStep: what the command offers when invalid entries refuse the import.
    func report(
        _ outcome: ImportOutcome, json: Bool, verbose: Bool, source: String,
        verbs: (dryRun: String, done: String), refusalStep: NextStep? = nil
    ) throws {
        let plan = outcome.plan
        if let refusal = plan.refusal {
            if json { invocation.output.print(try JSONOutput.string(outcome.summary)) }
            throw AdvisedError(error: refusal, nextStep: refusalStep)
        }
        for warning in plan.warnings { invocation.output.warning(warning) }
        if json { return invocation.output.print(try JSONOutput.string(outcome.summary)) }
        let verb = outcome.dryRun ? verbs.dryRun : verbs.done
        var line = "\(verb) \(plan.additions.count.counted("account")) from \(source)"
        if !plan.preferences.isEmpty { line += " and \(plan.preferences.count.counted("synced preference"))" }
        line += "; skipped \(plan.skipped.count), rejected \(plan.rejections.count)"
        if !plan.preferencesKept.isEmpty {
            line += "; kept the vault's value of \(plan.preferencesKept.count.counted("preference"))"
        }
        let hidden = outcome.dryRun ? plan.additions.count + plan.skipped.count : plan.skipped.count
        if !verbose, hidden > 0 { line += " (--verbose lists each)" }
        var lines = [line]
        if verbose, outcome.dryRun {
            lines += plan.additions.map { "  add      \($0.position): \(TerminalText.sanitized($0.label))" }
        }
        if verbose { lines += plan.skipped.map { "  skipped  \($0)" } }
        lines += plan.rejections.map { "  rejected \($0)" }
        invocation.output.print(lines.joined(separator: "\n"))
    }
}
