import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

/// Completes account arguments with the labels (`issuer:name`) in the vault,
/// the way `authcat code` matches them.
///
/// Runs inside the user's shell on every Tab, so it reads labels only: no
/// decryption, no passphrase prompt, no network, no output but the labels.
/// Any problem (no vault, unsafe permissions, a damaged file) completes nothing.
/// The scripts in completions/ take the labels as they are, without filtering
/// them again by prefix (see `CompletionScript`).
enum AccountCompletion {
    enum Scope {
        case live, deleted, all
    }

    static let live = CompletionKind.custom { words, index, prefix in complete(.live, words, index, prefix) }
    static let deleted = CompletionKind.custom { words, index, prefix in complete(.deleted, words, index, prefix) }
    static let all = CompletionKind.custom { words, index, prefix in complete(.all, words, index, prefix) }

    /// The environment variable through which the bash script passes its `COMP_WORDBREAKS`.
    static let wordBreaksVariable = "AUTHCAT_COMP_WORDBREAKS"

    /// Labels for the word being completed, in the form the requesting shell expects.
    ///
    /// `prefix` is the word up to the cursor as typed, quotes and backslashes
    /// included (fish before version 4 hands it over with them removed). bash
    /// gets what readline should put in place of the end of the word
    /// (`BashCompletionReply`); zsh and fish get the labels, and quote them themselves.
    static func complete(_ scope: Scope, _ words: [String], _ index: Int, _ prefix: String) -> [String] {
        reply(to: prefix) { typed in labels(scope, words: words, typed: typed) }
    }

    /// `candidates` for the word typed so far, in the form the requesting
    /// shell expects; shared by every completion of authcat's own.
    static func reply(to prefix: String, _ candidates: (_ typed: String) -> [String]) -> [String] {
        let environment = Invocation.current.environment
        let word = ShellWord(prefix)
        switch CompletionShell.requesting {
        case .bash?:
            let reply = BashCompletionReply(
                word: word, wordBreaks: environment[wordBreaksVariable] ?? BashCompletionReply.defaultWordBreaks)
            return reply.candidates(for: candidates(reply.text))
        case .fish? where !fishHandsOverTypedWords:
            return candidates(prefix)
        default:
            return candidates(word.text)
        }
    }

    /// Whether fish passes words as typed (fish 4 and later) rather than with their quotes removed.
    private static var fishHandsOverTypedWords: Bool {
        guard let major = CompletionShell.requestingVersion?.split(separator: ".").first.flatMap({ Int($0) }) else {
            return false
        }
        return major >= 4
    }

    /// The labels in `scope` that `typed` could be on its way to: those `code`
    /// would accept for it (`AccountQuery`), and those it begins, case ignored.
    /// Sorted; labels with control characters, which no shell can offer
    /// intact, are left out.
    static func labels(_ scope: Scope, words: [String], typed: String) -> [String] {
        let wanted = accounts(words: words, includingDeleted: scope != .live).filter { scope != .deleted || $0.deletedAt != nil }
        return matching(typed, in: wanted)
    }

    /// The vault's accounts, read without a prompt; none on any problem.
    static func accounts(words: [String], includingDeleted: Bool) -> [Account] {
        let environment = Invocation.current.environment
        guard let location = try? VaultLocation.resolve(override: home(in: words, environment: environment), environment: environment),
              location.exists, (try? location.checkPermissions()) != nil,
              let vault = try? Vault.open(at: location, passphrase: { throw VaultError.passphraseRequired }),
              let accounts = try? vault.accounts(includingDeleted: includingDeleted)
        else { return [] }
        return accounts
    }

    /// The labels of `accounts` that `typed` could be on its way to (see `labels`).
    static func matching(_ typed: String, in accounts: [Account]) -> [String] {
        let start = AccountQuery.folded(typed)
        let queried = typed.isEmpty ? accounts : AccountQuery(typed).matches(in: accounts)
        let begun = accounts.filter { AccountQuery.folded($0.label).hasPrefix(start) }
        let labels = Set((queried + begun).map(\.label)).filter { label in
            !label.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        return labels.sorted()
    }

    /// The value of `--home PATH` or `--home=PATH` among the shell words, with `~` expanded.
    static func home(in words: [String], environment: [String: String]) -> String? {
        var value: String?
        for (index, word) in words.enumerated() {
            if word == "--home", index + 1 < words.count {
                value = words[index + 1]
            } else if word.hasPrefix("--home=") {
                value = String(word.dropFirst("--home=".count))
            }
        }
        guard var path = value.map({ ShellWord($0).text }), !path.isEmpty else { return nil }
        if path == "~" || path.hasPrefix("~/"), let userHome = environment["HOME"] {
            path = userHome + path.dropFirst()
        }
        return path
    }
}
