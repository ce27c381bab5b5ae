#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one rule for completing an account argument with the labels
/// (`issuer:name`) in the vault, the way `authcat code` matches them. Both
/// programs complete through it: `authcat-cli` from swift-argument-parser's
/// custom completion (`AccountCompletion`), and the quick front, which
/// answers the same requests without starting the full program.
///
/// It runs inside the user's shell on every Tab, so it reads labels only: no
/// decryption, no passphrase prompt, no network, no output but the labels.
/// Any problem (no vault, unsafe permissions, a damaged file) completes nothing.
/// The scripts in completions/ take the labels as they are, without filtering
/// them again by prefix (see `CompletionScript`).
public struct AccountLabelCompletion: Sendable {
    /// Which accounts an argument names.
    public enum Scope: Sendable {
        case live, deleted, all

        /// Whether it names live accounts (`VaultReader.names(live:deleted:)`).
        public var includesLive: Bool { self != .deleted }
        /// Whether it names deleted accounts.
        public var includesDeleted: Bool { self != .live }
    }

    /// The environment variable through which the bash script passes its `COMP_WORDBREAKS`.
    public static let wordBreaksVariable = "AUTHCAT_COMP_WORDBREAKS"

    /// The variables a completion reads: the vault's location, `HOME` for a
    /// `~` in `--home`, and bash's word breaks.
    public static let environmentVariables = VaultLocation.environmentVariables + [wordBreaksVariable]

    /// The shell that asks, as swift-argument-parser names it (`$SAP_SHELL`): bash, zsh, fish, or nil for another.
    public let shell: String?
    /// The version of that shell (`$SAP_SHELL_VERSION`).
    public let shellVersion: String?
    public let environment: [String: String]

    public init(shell: String?, shellVersion: String?, environment: [String: String]) {
        self.shell = shell
        self.shellVersion = shellVersion
        self.environment = environment
    }

    /// The vault to read labels from, named by `--home` among the shell's
    /// words or by the environment; nil when there is none to read (nothing
    /// is completed then).
    public func location(words: [String]) -> VaultLocation? {
        guard
            let location = try? VaultLocation.resolve(
                override: Self.home(in: words, environment: environment),
                environment: environment),
            location.exists, (try? location.checkPermissions()) != nil
        else { return nil }
        return location
    }

    /// Labels for the word being completed, in the form the requesting shell expects.
    ///
    /// `prefix` is the word up to the cursor as typed, quotes and backslashes
    /// included (fish before version 4 hands it over with them removed); `accounts`
    /// are those of the argument's scope (`VaultReader.names(live:deleted:)`).
    /// bash gets what readline should put in place of the end of the word
    /// (`BashCompletionReply`); fish the labels it will list, and a word that
    /// keeps it from picking one (`FishCompletionReply`); zsh the labels.
    /// zsh and fish quote them themselves.
    public func candidates(prefix: String, accounts: [AccountName]) -> [String] {
        reply(to: prefix) { typed in Self.matching(typed, in: accounts) }
    }

    /// `candidates` for the word typed so far, in the form the requesting
    /// shell expects (see `candidates(prefix:accounts:)`); shared by every
    /// completion of authcat's own, tags included.
    public func reply(to prefix: String, _ candidates: (_ typed: String) -> [String]) -> [String] {
        let word = ShellWord(prefix)
        switch shell {
        case "bash":
            let reply = BashCompletionReply(
                word: word, wordBreaks: environment[Self.wordBreaksVariable] ?? BashCompletionReply.defaultWordBreaks)
            return reply.candidates(for: candidates(reply.text))
        case "fish":
            let typed = fishHandsOverTypedWords ? word.text : prefix
            return FishCompletionReply(typed: typed).candidates(for: candidates(typed))
        default:
            return candidates(word.text)
        }
    }

    /// Whether fish passes words as typed (fish 4 and later) rather than with their quotes removed.
    private var fishHandsOverTypedWords: Bool {
        guard let major = shellVersion?.split(separator: ".").first.flatMap({ Int($0) }) else { return false }
        return major >= 4
    }

    /// The labels of `accounts` that `typed` could be on its way to: those
    /// `code` would accept for it (`AccountQuery`), and those it begins, case
    /// and accents ignored (`AccountQuery.folded`). Sorted; labels with
    /// control characters, which no shell can offer intact, are left out.
    public static func matching(_ typed: String, in accounts: [AccountName]) -> [String] {
        let start = AccountQuery.folded(typed)
        let queried = typed.isEmpty ? accounts : AccountQuery(typed).matches(in: accounts)
        let begun = accounts.filter { AccountQuery.folded($0.label).hasPrefix(start) }
        let labels = Set((queried + begun).map(\.label)).filter(isOffered)
        return labels.sorted()
    }

    /// Whether a shell can offer `text` intact: it holds no control character.
    public static func isOffered(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: isControl)
    }

    /// Unicode's control characters (Cc); ASCII's without its property tables.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar.value < 0x20 || scalar.value == 0x7F : scalar.properties.generalCategory == .control
    }

    /// The value of `--home PATH` or `--home=PATH` among the shell words, with `~` expanded.
    public static func home(in words: [String], environment: [String: String]) -> String? {
        let value = ArgumentScanner.lastValue(of: "--home", in: words)
        guard var path = value.map({ ShellWord($0).text }), !path.isEmpty else { return nil }
        if path == "~" || path.hasPrefix("~/"), let userHome = environment["HOME"] {
            path = userHome + path.dropFirst()
        }
        return path
    }
}
