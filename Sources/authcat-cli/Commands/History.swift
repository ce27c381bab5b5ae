import ArgumentParser
import AuthCatCore

extension AuthCat {
    /// `authcat history [QUERY]`: who changed what, newest first.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the vault's change history, newest first.",
            discussion: """
                Each line is one changed record: transaction number, time (UTC), author \
                (cli, import, restore or sync), device, kind of change (insert, update, \
                delete), the account, and for updates the fields that changed. Values are \
                never shown. QUERY limits the history to one account, removed or not.

                --json prints an array of transactions with number, timestamp (seconds \
                since 1970), author, device {id, name} and changes [{entity, record_id, \
                label, kind, fields}].

                Examples:
                  authcat history --limit 20
                  authcat history GitHub:alice@example.com
                  authcat history --json | jq '.[] | select(.author == "sync")'
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(help: "Only this account: id, ISSUER:NAME, or part of the issuer or name.",
                  completion: AccountCompletion.all)
        var query: String?

        @Flag(help: "Print a JSON array.")
        var json = false

        @Option(help: ArgumentHelp("Show at most this many transactions.", valueName: "n"))
        var limit: Int?

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() throws {
            guard let vault = try vaultOptions.openExistingVault() else {
                if json { print("[]") }
                return
            }
            let recordID = try query.map { try vault.anyAccount(matching: $0).id.vaultString }
            let labels = HistorySummary.labels(of: try vault.accounts(includingDeleted: true))
            let entries = try vault.history(recordID: recordID, limit: limit).map { entry in
                var summary = HistorySummary(entry, labels: labels)
                // A transaction can change several records; show only the one asked about.
                if let recordID { summary.changes.removeAll { $0.recordID != recordID } }
                return summary
            }
            if json {
                print(try JSONOutput.string(entries))
                return
            }
            TextTable.lines(entries.flatMap(Self.rows)).forEach { print($0) }
        }

        private static func rows(_ entry: HistorySummary) -> [[String]] {
            entry.changes.map { change in
                let subject = change.label ?? "preference \(change.recordID)"
                let fields = change.kind == .update ? change.fields.joined(separator: ",") : ""
                return ["#\(entry.number)", Timestamp.text(entry.timestamp), entry.author.rawValue, entry.device.name,
                        change.kind.rawValue, subject, fields]
            }
        }
    }
}
