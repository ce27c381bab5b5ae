import AuthCatCore
import AuthCatEssentials
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
    /// the file `variable` names, or typed twice.
    static func newPassphrase(
        environment: [String: String], variable: String = passphraseVariable
    ) throws -> SecretBytes {
        if let path = environment[variable], !path.isEmpty {
            let passphrase = try firstLine(ofFile: path, what: "the \(variable) file")
            try NewPassphraseRule.check(passphrase, what: "the sync passphrase")
            return passphrase
        }
        let hint = "set \(variable) to a file holding the new sync passphrase"
        let first = try typed(
            prompt: NewPassphraseRule.prompt("new sync passphrase"), what: "the sync passphrase", hint: hint)
        try NewPassphraseRule.check(first, what: "the sync passphrase")
        let second = try typed(prompt: "new sync passphrase again: ", what: "the sync passphrase", hint: hint)
        guard first == second else { throw InputError.passphrasesDiffer }
        return first
    }

    /// The existing sync passphrase, to join: the file's first line, or typed once.
    static func passphrase(environment: [String: String]) throws -> SecretBytes {
        if let path = environment[passphraseVariable], !path.isEmpty {
            return try firstLine(ofFile: path, what: "the \(passphraseVariable) file")
        }
        return try typed(
            prompt: "sync passphrase: ", what: "the sync passphrase",
            hint: "set \(passphraseVariable) to a file holding the sync passphrase")
    }

    /// The recovery key, to join: the first line of `file`, or typed once.
    static func recoveryKey(file: String?) throws -> SecretBytes {
        try file.map { try firstLine(ofFile: $0, what: "the recovery key file") }
            ?? typed(
                prompt: "recovery key: ", what: "the recovery key",
                hint: "pass --recovery-key-file with a file holding it")
    }

    /// The first line of the file, without its line break, read and trimmed in locked memory.
    private static func firstLine(ofFile path: String, what: String) throws -> SecretBytes {
        let fd = try InputPath.open(path)
        guard fd >= 0 else {
            throw InputError.readFailed(what: "\(what) \(path)", reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        let line = try FileDescriptorReader.readSecret(
            fd, limit: limit, what: what, keep: FileDescriptorReader.firstLine)
        guard line.count > 0 else { throw InputError.emptyPassphrase(source: "\(what) (\(path))") }
        return line
    }

    private static func typed(prompt: String, what: String, hint: String) throws -> SecretBytes {
        let typed = try Terminal.readHidden(prompt: prompt, limit: limit, what: what, hint: hint)
        guard typed.count > 0 else { throw InputError.emptyPassphrase(source: "the terminal") }
        return typed
    }
}
