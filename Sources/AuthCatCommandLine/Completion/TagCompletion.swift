import ArgumentParser
import AuthCatCore
import AuthCatEssentials

/// Completes `--tag` and `--untag` with the tags in the vault: those the
/// typed word begins, case and accents ignored (`AccountQuery.folded`).
/// Reads the vault `AccountCompletion` reads, and like it never prompts.
enum TagCompletion {
    static let all = CompletionKind.custom { words, _, prefix in
        let completion = AccountCompletion.requested
        let vault = AccountCompletion.vault(completion, words: words)
        return completion.reply(to: prefix) { typed in tags(in: vault, typed: typed) }
    }

    static func tags(in vault: Vault?, typed: String) -> [String] {
        guard let accounts = try? vault?.accounts(includingDeleted: false) else { return [] }
        let start = AccountQuery.folded(typed)
        let tags = Set(accounts.flatMap(\.tags))
        return tags.filter { AccountQuery.folded($0).hasPrefix(start) && AccountLabelCompletion.isOffered($0) }.sorted()
    }
}
