import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation
import Synchronization

/// Where passphrases come from: a file named by an environment variable (for
/// scripts) or the terminal. Never the command line, where other users could
/// read them in the process list.
enum PassphraseSource {
    static let currentVariable = "AUTHCAT_PASSPHRASE_FILE"
    static let newVariable = "AUTHCAT_NEW_PASSPHRASE_FILE"
    /// The passphrase of an encrypted export from another app, for `import`.
    static let importVariable = "AUTHCAT_IMPORT_PASSPHRASE_FILE"
    /// The passphrase of a backup, for `backup`, `restore-backup` and `import`.
    static let backupVariable = "AUTHCAT_BACKUP_PASSPHRASE_FILE"
    /// Longer than any passphrase a person types, short enough to fail fast on a wrong file.
    static let limit = 4096

    /// The vault's passphrase provider: called only when a secret is needed
    /// and the vault key is wrapped.
    ///
    /// The vault asks again after a wrong passphrase (`Vault.passphraseAttempts`):
    /// typed, it is asked for again with a warning (`TypedAnswer.Retries`);
    /// from a file, which would give the same line, the wrong passphrase is final at once.
    ///
    /// With `desktop`, and no terminal (a command run from a key binding), it
    /// is asked for there instead (`DesktopPassphrase`), which says the tries left.
    static func current(
        in invocation: Invocation, desktop: DesktopPassphrase? = nil
    ) -> @Sendable () throws -> SecretBytes {
        let path = invocation.environment[currentVariable] ?? ""
        let retries = TypedAnswer.Retries(typed: path.isEmpty, in: invocation)
        let asked = Mutex(0)
        return {
            // The vault calls again only after a wrong passphrase.
            let earlier = asked.withLock { count in
                defer { count += 1 }
                return count
            }
            if path.isEmpty, let desktop, !invocation.terminal.canAsk {
                return try desktop.ask(triesLeft: earlier > 0 ? Vault.passphraseAttempts - earlier : nil)
            }
            if earlier > 0 { try retries.again(after: VaultError.wrongPassphrase) }
            if !path.isEmpty { return try fromFile(path, variable: currentVariable, in: invocation) }
            return try fromTerminal(
                prompt: "authcat passphrase: ", hint: VaultError.passphraseRequired.description, in: invocation)
        }
    }

    /// The vault's passphrase from `AUTHCAT_PASSPHRASE_FILE` only, never the
    /// terminal: for work with a deadline, which must not wait on a person.
    static func withoutPrompt(in invocation: Invocation) -> @Sendable () throws -> SecretBytes {
        {
            guard let path = invocation.environment[currentVariable], !path.isEmpty else {
                throw VaultError.passphraseRequired
            }
            return try fromFile(path, variable: currentVariable, in: invocation)
        }
    }

    /// A new passphrase: from `AUTHCAT_NEW_PASSPHRASE_FILE`, else typed twice
    /// on the terminal; either way it must follow `NewPassphraseRule`.
    static func new(in invocation: Invocation) throws -> SecretBytes {
        if let path = invocation.environment[newVariable], !path.isEmpty {
            let passphrase = try fromFile(path, variable: newVariable, in: invocation)
            try NewPassphraseRule.check(passphrase, what: "the new passphrase")
            return passphrase
        }
        let hint = "set \(newVariable) to a file holding the new passphrase"
        return try TypedAnswer.asking(in: invocation) {
            let first = try fromTerminal(prompt: NewPassphraseRule.prompt("new passphrase"), hint: hint, in: invocation)
            try NewPassphraseRule.check(first, what: "the new passphrase")
            let second = try fromTerminal(prompt: "new passphrase again: ", hint: hint, in: invocation)
            guard first == second else { throw InputError.passphrasesDiffer }
            return first
        }
    }

    /// The passphrase of a file authcat reads or writes (an encrypted import,
    /// a backup): from the file named by `variable`, else typed on the
    /// terminal. With `confirm` it seals a new file: it must follow
    /// `NewPassphraseRule` and is typed twice, so that a typo cannot seal a backup.
    static func forFile(
        variable: String, prompt: String, confirm: Bool, in invocation: Invocation
    ) throws -> SecretBytes {
        if let path = invocation.environment[variable], !path.isEmpty {
            let passphrase = try fromFile(path, variable: variable, in: invocation)
            if confirm { try NewPassphraseRule.check(passphrase, what: "the \(prompt)") }
            return passphrase
        }
        let hint = "set \(variable) to a file holding it"
        guard confirm else { return try fromTerminal(prompt: prompt + ": ", hint: hint, in: invocation) }
        return try TypedAnswer.asking(in: invocation) {
            let first = try fromTerminal(prompt: NewPassphraseRule.prompt(prompt), hint: hint, in: invocation)
            try NewPassphraseRule.check(first, what: "the \(prompt)")
            guard first == (try fromTerminal(prompt: prompt + " again: ", hint: hint, in: invocation)) else {
                throw InputError.passphrasesDiffer
            }
            return first
        }
    }

    /// What `open` makes of a file sealed with a passphrase (an encrypted
    /// import, a backup), handed the context that reads the passphrase from
    /// the file `variable` names, else from the terminal. A wrong one typed is
    /// asked for again (`TypedAnswer`); one read from a file is final.
    static func opening<T>(
        variable: String, prompt: String, in invocation: Invocation, _ open: (ImportContext) throws -> T
    ) throws -> T {
        let context = ImportContext(password: {
            try forFile(variable: variable, prompt: prompt, confirm: false, in: invocation)
        })
        guard (invocation.environment[variable] ?? "").isEmpty else { return try open(context) }
        return try TypedAnswer.asking(in: invocation) { try open(context) }
    }

    /// The first line of the file, without its line break (`SecretFile`).
    static func fromFile(_ path: String, variable: String, in invocation: Invocation) throws -> SecretBytes {
        try SecretFile.firstLine(
            path, what: "the \(variable) file", source: "\(variable) (\(path))", limit: limit,
            unreadable: { InputError.unreadableFile(variable: variable, path: path, reason: $0) }, in: invocation)
    }

    private static func fromTerminal(prompt: String, hint: String, in invocation: Invocation) throws -> SecretBytes {
        let typed = try invocation.terminal.readHidden(prompt: prompt, limit: limit, what: "the passphrase", hint: hint)
        guard typed.count > 0 else { throw InputError.emptyPassphrase(source: "the terminal") }
        return typed
    }
}

/// The one rule for every passphrase authcat is asked to set: the vault's,
/// a backup's and the sync passphrase. It is said in the prompt, before
/// anything is typed, and checked on the first entry (or the file's line).
enum NewPassphraseRule {
    /// Each of these passphrases guards data someone may copy and attack
    /// offline (a stolen laptop, a backup, the remote), so very short ones are refused.
    static let minimumLength = 8

    /// What a prompt says: "new passphrase (at least 8 characters): ".
    static func prompt(_ what: String) -> String {
        "\(what) (at least \(minimumLength) characters): "
    }

    /// Throws unless `passphrase` has at least `minimumLength` characters (UTF-8 sequences, not bytes).
    static func check(_ passphrase: SecretBytes, what: String) throws {
        // Counted in place: no copy of the passphrase is made.
        let characters = passphrase.withUnsafeBytes { bytes in bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
        guard characters >= minimumLength else { throw NewPassphraseError.tooShort(what: what, minimum: minimumLength) }
    }
}
