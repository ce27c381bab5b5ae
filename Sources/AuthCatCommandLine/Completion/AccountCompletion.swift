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
            environment: Invocation.current.environment)
    }

    /// The vault the shell's words name, opened without a prompt; nil on any problem.
    static func vault(_ completion: AccountLabelCompletion, words: [String]) -> Vault? {
        guard let location = completion.location(words: words) else { return nil }
        return try? Vault.open(at: location, passphrase: { throw VaultError.passphraseRequired })
    }
}
