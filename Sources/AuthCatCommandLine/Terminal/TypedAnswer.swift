import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Synchronization

/// A question typed on a terminal is asked again after a typo (a secret
/// that is not Base32, a PIN of the wrong form, two passphrases that
/// differ, a wrong password, an answer to a [y/N] that is neither), up to
/// three times in all, instead of ending the command at the first slip.
/// Piped input, or a secret read from a file, is answered once: a script's
/// mistake is not fixed by reading again.
///
/// Two shapes, one rule: `asking` runs a question and its check together
/// and asks again itself; `Retries` serves a secret that is checked after it
/// was given (the vault's passphrase, the sync passphrase or recovery key to
/// join, rotate or change it) and asked for again.
enum TypedAnswer {
    static let attempts = 3

    static func asking<T>(in invocation: Invocation, _ ask: () throws -> T) throws -> T {
        guard invocation.terminal.standardInputIsTerminal else { return try ask() }
        var attempt = 1
        while true {
            do {
                return try ask()
            } catch let error as UserFacingError where attempt < attempts && isTypo(error) {
                attempt += 1
                warn(error, left: attempts - attempt + 1, in: invocation)
            }
        }
    }

    /// The answer to a [y/N] question on the terminal, asked again after an
    /// answer that is neither (`Terminal.confirm`).
    static func confirm(_ question: String, hint: String, in invocation: Invocation) throws -> Bool {
        try asking(in: invocation) { try invocation.terminal.confirm(question, hint: hint) }
    }

    /// The tries of one secret that a library checks once it has it, and
    /// asks for again when it is wrong.
    final class Retries: Sendable {
        private let wrongSoFar = Mutex(0)
        private let typed: Bool
        private let invocation: Invocation

        /// - Parameter typed: false when the secret comes from a file, which would give the same line again.
        init(typed: Bool, in invocation: Invocation) {
            self.typed = typed
            self.invocation = invocation
        }

        /// Called when the library asks again after `wrong`: warns, with the
        /// tries left, when a person at the terminal can answer again;
        /// otherwise `wrong` is final and thrown.
        func again(after wrong: any Error) throws {
            let wrongSoFar = wrongSoFar.withLock { count in
                count += 1
                return count
            }
            guard typed, invocation.terminal.standardInputIsTerminal, wrongSoFar < attempts,
                let error = wrong as? UserFacingError
            else { throw wrong }
            warn(error, left: attempts - wrongSoFar, in: invocation)
        }

        /// What `use` makes of `first`, a secret asked for before other
        /// questions, asking again (`ask`) while it is refused as wrong
        /// (`isWrong`): only the secret is asked again, not the questions.
        func using<Secret, Result>(
            _ first: Secret, askAgain ask: () throws -> Secret, refusedWhen isWrong: (any Error) -> Bool,
            _ use: (Secret) async throws -> Result
        ) async throws -> Result {
            var secret = first
            while true {
                do {
                    return try await use(secret)
                } catch  where isWrong(error) {
                    try again(after: error)
                    secret = try ask()
                }
            }
        }
    }

    /// Said before anything could change: only the typo and the tries left.
    private static func warn(_ error: UserFacingError, left: Int, in invocation: Invocation) {
        let message = error.advisedDescription.replacingOccurrences(of: "; nothing was changed", with: "")
        invocation.output.warning("\(message); try again (\(left.counted("try", plural: "tries")) left)")
    }

    /// Mistakes in what was typed, never a missing terminal or a failed read.
    private static func isTypo(_ error: Error) -> Bool {
        switch error {
        case is Base32Error, is Base16Error, is OTPPINError, is NewPassphraseError, is SecretInput.URIGivenError: true
        case let input as InputError:
            switch input {
            case .passphrasesDiffer, .emptyPassphrase, .notYesOrNo: true
            default: false
            }
        case let failedImport as ImportError:
            if case .wrongPassword = failedImport { true } else { false }
        case BackupError.wrongPassphraseOrAltered: true
        default: false
        }
    }
}
