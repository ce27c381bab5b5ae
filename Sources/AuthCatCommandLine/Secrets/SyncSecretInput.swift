import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// Where the sync passphrase and the recovery key come from: a file (named by
/// `AUTHCAT_SYNC_PASSPHRASE_FILE`, or `--recovery-key-file`) or the terminal,
/// with echo off. Never the command line.
enum SyncSecretInput {
    static let passphraseVariable = "AUTHCAT_SYNC_PASSPHRASE_FILE"
    /// Longer than anything a person types, short enough to fail fast on a wrong file.
    static let limit = 4096

    /// Where `sync passphrase change` reads the new sync passphrase from, for scripts.
    static let newPassphraseVariable = "AUTHCAT_NEW_SYNC_PASSPHRASE_FILE"

    /// A new sync passphrase following `NewPassphraseRule`: the first line of
    /// the file `variable` names, or typed twice (again after a typo, `TypedAnswer`).
    static func newPassphrase(variable: String = passphraseVariable, in invocation: Invocation) throws -> SecretBytes {
        if let path = invocation.environment[variable], !path.isEmpty {
            let passphrase = try firstLine(ofFile: path, what: "the \(variable) file", in: invocation)
            try NewPassphraseRule.check(passphrase, what: "the sync passphrase")
            return passphrase
        }
        let hint = "set \(variable) to a file holding the new sync passphrase"
        return try TypedAnswer.asking(in: invocation) {
            let first = try typed(
                prompt: NewPassphraseRule.prompt("new sync passphrase"), what: "the sync passphrase", hint: hint,
                in: invocation)
            try NewPassphraseRule.check(first, what: "the sync passphrase")
            let second = try typed(
                prompt: "new sync passphrase again: ", what: "the sync passphrase", hint: hint, in: invocation)
            guard first == second else { throw InputError.passphrasesDiffer }
            return first
        }
    }

    /// The existing sync passphrase, to join: the file's first line, or typed once.
    static func passphrase(in invocation: Invocation) throws -> SecretBytes {
        if let path = invocation.environment[passphraseVariable], !path.isEmpty {
            return try firstLine(ofFile: path, what: "the \(passphraseVariable) file", in: invocation)
        }
        return try typed(
            prompt: "sync passphrase: ", what: "the sync passphrase",
            hint: "set \(passphraseVariable) to a file holding the sync passphrase", in: invocation)
    }

    /// The secret that proves authority over the remote vault (to join, rotate
    /// or change the passphrase): the recovery key with `useRecoveryKey`
    /// (from `file` or typed), else the sync passphrase.
    static func current(useRecoveryKey: Bool, file: String?, in invocation: Invocation) throws -> SyncSecret {
        useRecoveryKey
            ? .recoveryKey(try recoveryKey(file: file, in: invocation)) : .passphrase(try passphrase(in: invocation))
    }

    /// Retries of `current`, which a person may mistype: typed, not read from a file.
    static func retries(useRecoveryKey: Bool, file: String?, in invocation: Invocation) -> TypedAnswer.Retries {
        let typed = useRecoveryKey ? file == nil : (invocation.environment[passphraseVariable] ?? "").isEmpty
        return TypedAnswer.Retries(typed: typed, in: invocation)
    }

    /// Whether the remote vault refused the secret as wrong, so that a person may type it again.
    static func isRefused(_ error: any Error) -> Bool {
        (error as? SyncError)?.category == .wrongPassphrase
    }

    /// The recovery key, to join: the first line of `file`, or typed once.
    static func recoveryKey(file: String?, in invocation: Invocation) throws -> SecretBytes {
        try file.map { try firstLine(ofFile: $0, what: "the recovery key file", in: invocation) }
            ?? typed(
                prompt: "recovery key: ", what: "the recovery key",
                hint: "pass --recovery-key-file with a file holding it", in: invocation)
    }

    /// The first line of the file, without its line break (`SecretFile`).
    private static func firstLine(ofFile path: String, what: String, in invocation: Invocation) throws -> SecretBytes {
        try SecretFile.firstLine(
            path, what: what, source: "\(what) (\(path))", limit: limit,
            unreadable: { InputError.readFailed(what: "\(what) \(path)", reason: $0) }, in: invocation)
    }

    private static func typed(
        prompt: String, what: String, hint: String, in invocation: Invocation
    ) throws -> SecretBytes {
        let typed = try invocation.terminal.readHidden(prompt: prompt, limit: limit, what: what, hint: hint)
        guard typed.count > 0 else { throw InputError.emptyPassphrase(source: "the terminal") }
        return typed
    }
}
