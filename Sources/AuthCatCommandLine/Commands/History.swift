import ArgumentParser
import AuthCatCore
import AuthCatEssentials

extension AuthCat {
    /// `authcat history [QUERY]`: who changed what, newest first.
    struct History: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Show the vault's change history, newest first.",
            discussion: """
                Each line is one changed record: transaction number, time (local, with its offset from UTC), author \
                (cli, import, restore or sync), device, kind of change (insert, update, \
                delete), the account, and for updates the fields that changed. Values are \
                never shown. A rotation of the sync key is a line of kind rotate (author cli on \
                the device that rotated, sync elsewhere, naming the device it came from), with a \
                line of kind revoke for each device it revoked, by name and id. QUERY limits the history to one account, removed or \
                not.

                The newest 20 transactions are shown unless --limit (or the setting \
                history.limit) says otherwise; --limit 0 shows them all. When more exist, standard error says so.

                Of a transaction that changed many records (an import, a restore), the \
                first 20 changes are shown, then a line saying how many more there are; \
                --all-changes shows them all. --json always shows every change.

                --json prints an array of transactions with number, timestamp (seconds \
                since 1970), author, device {id, name} and changes [{entity, record_id, \
                label, kind, fields}].

                Examples:
                  authcat history --limit 0
                  authcat history GitHub:alice@example.com
                  authcat history --json | jq '.[] | select(.author == "sync")'
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(
            help: "Only this account: id, ISSUER:NAME, or part of the issuer or name.",
            completion: AccountCompletion.all)
        var query: String?

        @Flag(help: "Print a JSON array.")
        var json = false

        /// Unconditional, so that `--limit -3` reaches `validate()` as a number
        /// instead of failing as "missing value" (a negative number looks like an option).
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Show at most this many transactions (0: all; default 20, or the setting history.limit).",
                valueName: "n"))
        var limit: Int?

        /// One screenful: after a big import the history holds thousands of transactions.
        static let defaultLimit = 20

        @Flag(help: "Show every change of each transaction, not only the first \(Self.changesShown).")
        var allChanges = false

        /// Changes shown of one transaction: an import of 10,000 accounts is one
        /// transaction, and printing all its changes took most of a second.
        static let changesShown = 20

        func validate() throws {
            if let limit, limit < 0 {
                throw ValidationError("--limit must be 0 (all) or a positive number, not \(limit)")
            }
        }

        func run(in invocation: Invocation) throws {
            guard let vault = try vaultOptions.openExistingVault(in: invocation) else {
                throw NoAccountsError(vaultOptions, in: invocation)
            }
            let limit = try limit ?? vault.setting(ConfigKey.historyLimit).flatMap { Int($0) } ?? Self.defaultLimit
            let recordID = try query.map { try vault.anyAccount(matching: $0).id.vaultString }
            // One more than asked for tells whether the page was cut (a limit
            // too large to count one more is as good as all).
            let (oneMore, overflow) = limit.addingReportingOverflow(1)
            var page = try vault.historyExcerpts(
                recordID: recordID, limit: limit == 0 || overflow ? nil : oneMore,
                changesPerTransaction: json || allChanges ? nil : Self.changesShown)
            let cut = limit > 0 && page.count > limit
            if cut { page.removeLast() }
            // Labels only of the changes shown; a transaction can change several
            // records, and with QUERY only its changes of that one are read.
            let labels = try vault.accountLabels(ids: Set(page.flatMap { $0.entry.changes.map(\.recordID) }))
            if json {
                invocation.output.print(try JSONOutput.string(page.map { HistorySummary($0.entry, labels: labels) }))
            } else {
                // One write for the whole table rather than one per line.
                let lines = TextTable.lines(
                    page.flatMap { Self.rows(HistorySummary($0.entry, labels: labels), omitted: $0.omittedChanges) })
                if !lines.isEmpty { invocation.output.print(lines.joined(separator: "\n")) }
                if page.contains(where: { $0.omittedChanges > 0 }) {
                    invocation.output.note(
                        "showing the first \(Self.changesShown) changes of a transaction; --all-changes shows all")
                }
            }
            if cut {
                invocation.output.note("showing the newest \(limit.counted("transaction")); --limit 0 shows all")
            }
        }

        /// What a change is about, as a line names it.
        private static func subject(_ change: HistorySummary.Change) -> String {
            switch change.entity {
            case .account: change.label ?? change.recordID
            case .preference: "preference \(change.recordID)"
            case .syncKey: "sync key (key epoch \(change.recordID))"
            case .device: "device \(change.label ?? "unknown") (\(change.recordID))"
            }
        }

        /// A line per change shown, then one saying how many were left out.
        private static func rows(_ entry: HistorySummary, omitted: Int) -> [[String]] {
            let time = Timestamp.text(entry.timestamp)
            let transaction = ["#\(entry.number)", time, entry.authorLabel, entry.device.name]
            var rows = entry.changes.map { change in
                let subject = Self.subject(change)
                let fields = change.kind == .update ? change.fields.joined(separator: ",") : ""
                return transaction + [change.kind.rawValue, subject, fields]
            }
            if omitted > 0 {
                rows.append(transaction + ["…", "and \(omitted) more \(omitted == 1 ? "change" : "changes")"])
            }
            return rows
        }
    }
}
