import AuthCatEssentials
import AuthCatInterchange
import AuthCatSync
import Foundation
import Synchronization

/// Where the command line finds a WebDAV password: the first line of the file
/// named by `AUTHCAT_WEBDAV_PASSWORD_FILE` (read under the same path rules as
/// every passphrase file), else `~/.netrc` (read by the remote), else typed on
/// the terminal with echo off. Never argv or the URL.
///
/// A typed password is asked once per source and kept, in locked memory, as
/// long as the source: `sync watch` makes a remote for every sync, and must
/// not ask again at every interval.
enum WebDAVPasswordInput {
    /// Longer than any app password, short enough to fail fast on a wrong file.
    static let limit = 4096

    static func source(in invocation: Invocation) -> WebDAVPasswordSource {
        let variable = WebDAVPasswordSource.fileVariable
        let environment = invocation.environment
        let terminal = invocation.terminal
        let kept = TypedPassword()
        return WebDAVPasswordSource(
            named: {
                guard let path = environment[variable], !path.isEmpty else { return nil }
                return try PassphraseSource.fromFile(path, variable: variable, in: invocation)
            },
            typed: { prompt in
                try kept.once(prompt) {
                    guard terminal.standardInputIsTerminal else { return nil }
                    let typed = try terminal.readHidden(
                        prompt: prompt, limit: limit, what: "the WebDAV password",
                        hint: "set \(variable) to a file holding it, or add the server to ~/.netrc")
                    guard typed.count > 0 else { throw InputError.emptyPassphrase(source: "the terminal") }
                    return typed
                }
            },
            exposed: { invocation.output.warning($0) })
    }

    /// The password typed for each prompt (one per user and host), kept once asked.
    private final class TypedPassword: Sendable {
        private let answers = Mutex<[String: SecretBytes]>([:])

        func once(_ prompt: String, ask: () throws -> SecretBytes?) throws -> SecretBytes? {
            if let kept = answers.withLock({ $0[prompt] }) { return kept }
            guard let typed = try ask() else { return nil }
            answers.withLock { $0[prompt] = typed }
            return typed
        }
    }
}
