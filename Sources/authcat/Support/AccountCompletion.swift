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

    static let live = CompletionKind.custom { words, _, prefix in labels(.live, words: words, prefix: prefix) }
    static let deleted = CompletionKind.custom { words, _, prefix in labels(.deleted, words: words, prefix: prefix) }
    static let all = CompletionKind.custom { words, _, prefix in labels(.all, words: words, prefix: prefix) }

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
        let needle = unquoted(prefix).lowercased()
        let labels = wanted.map(\.label).filter { $0.lowercased().hasPrefix(needle) }
        return Array(Set(labels)).sorted()
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
