import ArgumentParser
import AuthCatCore
import AuthCatEssentials

/// Completes `--tag` and `--untag` with the tags in the vault: those the
/// typed word begins, case and accents ignored (`AccountQuery.folded`).
/// Reads what `AccountCompletion` reads, and like it never prompts.
enum TagCompletion {
    static let all = CompletionKind.custom { words, _, prefix in
        AccountCompletion.reply(to: prefix) { typed in tags(words: words, typed: typed) }
    }

    static func tags(words: [String], typed: String) -> [String] {
        let start = AccountQuery.folded(typed)
        let tags = Set(AccountCompletion.accounts(words: words, includingDeleted: false).flatMap(\.tags))
        return tags.filter { AccountQuery.folded($0).hasPrefix(start) && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
            .sorted()
    }
}
