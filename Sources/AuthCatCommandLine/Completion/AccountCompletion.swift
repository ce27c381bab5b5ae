import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

/// Completes account arguments with the labels (`issuer:name`) in the vault,
/// through `AccountLabelCompletion`, the rule the quick front answers the
/// same requests with.
enum AccountCompletion {
    static let live = kind(.live)
    static let deleted = kind(.deleted)
    static let all = kind(.all)

    private static func kind(_ scope: AccountLabelCompletion.Scope) -> CompletionKind {
        .custom { words, _, prefix in complete(scope, words, prefix) }
    }

    /// Labels for the word being completed, in the form the requesting shell expects.
    static func complete(_ scope: AccountLabelCompletion.Scope, _ words: [String], _ prefix: String) -> [String] {
        let completion = requested
        guard let vault = vault(completion, words: words),
            let accounts = try? vault.accountNames(live: scope.includesLive, deleted: scope.includesDeleted)
        else { return [] }
        return completion.candidates(prefix: prefix, accounts: accounts)
    }

    /// The completion the shell asks for now.
    static var requested: AccountLabelCompletion {
        AccountLabelCompletion(
            shell: CompletionShell.requesting?.rawValue, shellVersion: CompletionShell.requestingVersion,
            environment: environment)
    }

    /// The invocation's environment while `CommandRunner` parses. ArgumentParser
    /// calls a custom completion with the shell's words only, so this one
    /// value reaches it the way ArgumentParser's own `CompletionShell.requesting` does.
    @TaskLocal static var environment: [String: String] = [:]

    /// The vault the shell's words name, opened without a prompt; nil on any problem.
    static func vault(_ completion: AccountLabelCompletion, words: [String]) -> Vault? {
        guard let location = completion.location(words: words) else { return nil }
        return try? Vault.open(at: location, passphrase: { throw VaultError.passphraseRequired })
    }
}

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
        let start = Account.tagKey(typed)
        // One word per tag (`Work` and `work` are one), in the spelling that sorts first, sorted as tags are.
        var byKey: [String: String] = [:]
        for tag in accounts.flatMap(\.tags) {
            let key = Account.tagKey(tag)
            if let known = byKey[key], known <= tag { continue }
            byKey[key] = tag
        }
        return byKey.sorted { $0.key < $1.key }
            .filter { $0.key.hasPrefix(start) && AccountLabelCompletion.isOffered($0.value) }.map(\.value)
    }
}
