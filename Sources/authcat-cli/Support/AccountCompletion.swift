import ArgumentParser
import AuthCatCore
import Foundation

/// Completes account arguments with the labels (`issuer:name`) in the vault.
///
/// Runs inside the user's shell on every Tab, so it reads labels only: no
/// decryption, no passphrase prompt, no network, no output but the labels.
/// Any problem (no vault, unsafe permissions, a damaged file) completes nothing.
enum AccountCompletion {
    enum Scope {
        case live, deleted, all
    }

    static let live = CompletionKind.custom { words, index, prefix in complete(.live, words, index, prefix) }
    static let deleted = CompletionKind.custom { words, index, prefix in complete(.deleted, words, index, prefix) }
    static let all = CompletionKind.custom { words, index, prefix in complete(.all, words, index, prefix) }

    /// Labels for the word being completed, in the form the requesting shell expects.
    ///
    /// bash splits words at colons, so `GitHub:al` arrives as `GitHub`, `:`,
    /// `al`; the label is matched against the whole and only the part from the
    /// current word on is offered. zsh reads `value:description`, so colons are escaped.
    static func complete(_ scope: Scope, _ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let shell = CompletionShell.requesting
        let typed = shell == .bash ? joinedAcrossColons(words, index, prefix) : unquoted(prefix)
        let found = labels(scope, words: words, prefix: typed)
        switch shell {
        case .bash:
            let replaced = typed.count - prefix.count
            return found.map { String($0.dropFirst(replaced)) }
        case .zsh:
            return found.map { $0.replacingOccurrences(of: ":", with: "\\:") }
        default:
            return found
        }
    }

    /// Labels in `scope` that start with `prefix`, ignoring case, sorted.
    static func labels(_ scope: Scope, words: [String], prefix: String) -> [String] {
        let environment = ProcessInfo.processInfo.environment
        guard let location = try? VaultLocation.resolve(override: home(in: words, environment: environment), environment: environment),
              location.exists, (try? location.checkPermissions()) != nil,
              let vault = try? Vault.open(at: location, passphrase: { throw VaultError.passphraseRequired }),
              let accounts = try? vault.accounts(includingDeleted: scope != .live)
        else { return [] }
        let wanted = accounts.filter { account in
            switch scope {
            case .live, .all: true
            case .deleted: account.deletedAt != nil
            }
        }
        let needle = prefix.lowercased()
        let labels = wanted.map(\.label).filter { $0.lowercased().hasPrefix(needle) }
        return Array(Set(labels)).sorted()
    }

    /// The text typed so far when bash has split it at colons.
    private static func joinedAcrossColons(_ words: [String], _ index: Int, _ prefix: String) -> String {
        guard index > 0, index <= words.count else { return prefix }
        var typed = prefix
        var position = index
        while position > 0, words[position - 1] == ":" || (position < words.count && words[position] == ":") {
            typed = words[position - 1] + typed
            position -= 1
        }
        return typed
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
        guard var path = value.map(unquoted), !path.isEmpty else { return nil }
        if path == "~" || path.hasPrefix("~/"), let userHome = environment["HOME"] {
            path = userHome + path.dropFirst()
        }
        return path
    }

    /// Shells hand words over verbatim; drop one pair of surrounding quotes.
    private static func unquoted(_ word: String) -> String {
        for quote in ["'", "\""] where word.count >= 2 && word.hasPrefix(quote) && word.hasSuffix(quote) {
            return String(word.dropFirst().dropLast())
        }
        if let first = word.first, first == "'" || first == "\"" { return String(word.dropFirst()) }
        return word
    }
}
