import AuthCatCore
import AuthCatEssentials

/// A question typed on a terminal is asked again after a typo (a secret
/// that is not Base32, a PIN of the wrong form, two passphrases that
/// differ), up to three times in all, instead of ending the command at the
/// first slip. Piped input is answered once: a script's mistake is not
/// fixed by reading again.
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
                let left = attempts - attempt + 1
                // Said before anything could change: only the typo and the tries left.
                let message = error.advisedDescription.replacingOccurrences(of: "; nothing was changed", with: "")
                invocation.output.warning("\(message); try again (\(left.counted("try", plural: "tries")) left)")
            }
        }
    }

    /// Mistakes in what was typed, never a missing terminal or a failed read.
    private static func isTypo(_ error: Error) -> Bool {
        switch error {
        case is Base32Error, is Base16Error, is OTPPINError, is NewPassphraseError, is SecretInput.URIGivenError: true
        case let input as InputError:
            switch input {
            case .passphrasesDiffer, .emptyPassphrase: true
            default: false
            }
        default: false
        }
    }
}
