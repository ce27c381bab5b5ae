import AuthCatCore
import AuthCatEssentials
import AuthCatSync

/// The settings authcat reads. `config set` accepts these and keys of the
/// user's own under `user.` (for scripts, and synced to every device with
/// `--synced`), and refuses the rest, so a typo cannot pass for a setting.
struct ConfigKey: Sendable {
    let name: String
    /// What it changes and its values, for `config --help` and errors.
    let summary: String
    /// Nil when `value` is acceptable, else why not.
    let check: @Sendable (String) -> String?

    static let userNamespace = "user."

    /// Every setting authcat reads; all are local to this device.
    static let known: [ConfigKey] = [historyLimit, clipboardKeep, syncDeadline, pickMenu]

    static let historyLimit = ConfigKey(
        name: "history.limit",
        summary: "how many transactions 'history' shows without --limit: a number, 0 for all (default 20)"
    ) { value in
        Int(value).map { $0 >= 0 } == true ? nil : "a number of transactions, 0 for all"
    }

    static let clipboardKeep = ConfigKey(
        name: "clipboard.keep",
        summary: "true: 'code --copy' leaves the code on the clipboard, as --keep does (default false)"
    ) { value in
        ["true", "false"].contains(value) ? nil : "true or false"
    }

    static let syncDeadline = ConfigKey(
        name: "sync.deadline",
        summary: "seconds a whole sync or background push may take before it stops with an error: "
            + "\(SyncDeadline.expected) (default \(DeadlineRemote.defaultSeconds); \(SyncDeadline.variable) overrides it)"
    ) { value in
        SyncDeadline.parse(value) == nil ? SyncDeadline.expected : nil
    }

    static let pickMenu = ConfigKey(
        name: "pick.menu",
        summary: "the menu 'pick' shows: " + Menu.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            + " (default: chosen from the session; --menu overrides it)"
    ) { value in
        Menu.Kind(rawValue: value) == nil ? Menu.Kind.allCases.map(\.rawValue).joined(separator: ", ") : nil
    }

    /// Throws unless `key` may be set to `value` in this scope.
    static func checkSettable(_ key: String, value: String, synced: Bool) throws {
        if key.hasPrefix(userNamespace), key.count > userNamespace.count { return }
        guard !synced else { throw ConfigError.unknownKey(key, synced: true, nearest: nil) }
        guard let setting = known.first(where: { $0.name == key }) else {
            throw ConfigError.unknownKey(
                key, synced: false, nearest: CommandSuggestion.nearest(to: key, among: known.map(\.name)))
        }
        if let expected = setting.check(value) { throw ConfigError.badValue(key: key, expected: expected) }
    }

    /// The list for `config --help`.
    static var helpText: String {
        known.map { "  \($0.name)\n" + indentedLines($0.summary) }.joined(separator: "\n")
    }

    /// The summary in lines of at most 79 columns, each indented under its
    /// key: help prints an indented line as it is, and one it has to wrap
    /// (80 columns or more) would go on at the left margin.
    private static func indentedLines(_ summary: String) -> String {
        let indent = "      "
        var lines: [String] = []
        var line = ""
        for word in summary.split(separator: " ") {
            if !line.isEmpty, indent.count + line.count + 1 + word.count > 79 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return (lines + [line]).map { indent + $0 }.joined(separator: "\n")
    }
}

extension Vault {
    /// A local setting's value when it is one authcat accepts now; a value
    /// stored before a check existed falls back to the default.
    func setting(_ key: ConfigKey) throws -> String? {
        guard let value = try settings()[key.name], key.check(value) == nil else { return nil }
        return value
    }
}
