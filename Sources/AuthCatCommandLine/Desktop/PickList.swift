import AuthCatEssentials

/// The lines `pick` offers in a menu, one per account: issuer, name and
/// tags, never a secret or a code; and the account a chosen line stands for.
struct PickList {
    let lines: [String]
    private let accounts: [String: Account]

    init(_ offered: [Account]) {
        var lines: [String] = []
        var accounts: [String: Account] = [:]
        for account in offered {
            var line = Self.line(for: account)
            // Two accounts that read alike (sanitized control characters) stay apart by their ids.
            if accounts[line] != nil { line += "  [\(account.id.uuidString.prefix(8).lowercased())]" }
            lines.append(line)
            accounts[line] = account
        }
        self.lines = lines
        self.accounts = accounts
    }

    /// The account of a line offered; nil for anything else (what the user typed).
    func account(for line: String) -> Account? {
        accounts[line]
    }

    private static func line(for account: Account) -> String {
        let label = account.issuer.isEmpty ? account.name : "\(account.issuer): \(account.name)"
        let tags = account.tags.isEmpty ? "" : "  (" + account.tags.joined(separator: ", ") + ")"
        // One line each, whatever a name holds: a line break would split it in two.
        return TerminalText.sanitized(label + tags)
    }
}
