import ArgumentParser
import AuthCatCore
import AuthCatEssentials

extension AuthCat {
    /// `authcat edit QUERY`: rename, re-tag or annotate an account.
    struct Edit: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an account's issuer, name, tags or note.",
            discussion: """
                Only the given fields change, and history records which ones. Tags are \
                added with --tag and removed with --untag; --clear-tags removes all tags \
                first. An empty --issuer "" removes the issuer. The secret and the code \
                parameters cannot be edited: add the account again instead.

                Examples:
                  authcat edit github --name alice@work.example
                  authcat edit GitHub:alice --tag work --untag personal
                  authcat edit aws --note "root account; keep the recovery codes in the safe"
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(
            help: "The account: id, ISSUER:NAME, or part of the issuer or name.",
            completion: AccountCompletion.live)
        var query: String

        @Option(help: "The new issuer (\"\" for none).")
        var issuer: String?

        @Option(help: "The new account name.")
        var name: String?

        @Option(
            name: .customLong("tag"), help: ArgumentHelp("Add a tag; repeat for several.", valueName: "tag"),
            completion: TagCompletion.all)
        var addedTags: [String] = []

        @Option(
            name: .customLong("untag"), help: ArgumentHelp("Remove a tag; repeat for several.", valueName: "tag"),
            completion: TagCompletion.all)
        var removedTags: [String] = []

        @Flag(help: "Remove every tag (before adding those given with --tag).")
        var clearTags = false

        @Option(help: "The new note (\"\" for none).")
        var note: String?

        func validate() throws {
            guard issuer != nil || name != nil || note != nil || clearTags || !addedTags.isEmpty || !removedTags.isEmpty
            else {
                throw ValidationError(
                    "nothing to change: give --issuer, --name, --tag, --untag, --clear-tags or --note")
            }
            try TagArgument.validate(addedTags, option: "--tag")
            try TagArgument.validate(removedTags, option: "--untag")
        }

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            // Found and changed in one transaction: a concurrent edit is either
            // seen whole (its tags kept) or made after this one.
            let (account, updated) = try vault.write(author: .cli) { writer in
                let account = try writer.account(matching: query)
                try checkUntaggedTagsExist(on: account)
                let edit = AccountEdit(issuer: issuer, name: name, tags: tags(from: account.tags), note: note)
                return (account, try writer.update(account.id, edit))
            }
            guard updated != account else {
                invocation.output.print(
                    "\(TerminalText.sanitized(account.label)) already looks like that; nothing changed")
                return
            }
            VaultChangeHook.vaultDidChange(vault, in: invocation)
            invocation.output.print("updated \(TerminalText.sanitized(updated.label))")
        }

        /// `--untag T` for a tag the account lacks is a mistake worth saying
        /// (a typo, or the wrong account), not "already looks like that".
        private func checkUntaggedTagsExist(on account: Account) throws {
            guard !clearTags else { return }
            let missing = Account.normalizedTags(removedTags).filter { !account.hasTag($0) }
            guard let first = missing.first else { return }
            throw MissingTagError(label: account.label, tag: first, tags: account.tags)
        }

        private func tags(from current: [String]) -> [String]? {
            guard clearTags || !addedTags.isEmpty || !removedTags.isEmpty else { return nil }
            let removed = Set(removedTags.map(Account.tagKey))
            let kept = clearTags ? [] : current.filter { !removed.contains(Account.tagKey($0)) }
            return Account.normalizedTags(kept + addedTags)
        }
    }
}

extension AuthCat.Edit {
    /// `edit --untag T` for a tag the account does not have; nothing is changed.
    struct MissingTagError: UserFacingError {
        var label: String
        var tag: String
        var tags: [String]

        var description: String {
            let present =
                tags.isEmpty
                ? "it has no tags" : "its tags: " + tags.map(TerminalText.sanitized).joined(separator: ", ")
            return
                "the account \(TerminalText.sanitized(label)) has no tag \(TerminalText.sanitized(tag).debugDescription) (\(present)); nothing was changed"
        }
    }
}
