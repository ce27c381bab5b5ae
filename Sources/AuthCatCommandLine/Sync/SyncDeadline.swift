import AuthCatCore
import AuthCatSync

/// How long one whole sync (a `sync now`, a background push, each of `sync watch`'s syncs) may take.
///
/// `AUTHCAT_SYNC_DEADLINE`, else the `sync.deadline` setting, else
/// `DeadlineRemote.defaultSeconds`; in whole seconds. A sync past it stops
/// with an error that `sync status` shows (`DeadlineRemote`).
enum SyncDeadline {
    static let variable = "AUTHCAT_SYNC_DEADLINE"

    /// What the values may be, for `config --help` and errors.
    static let expected = "a whole number of seconds from 1 to \(DeadlineRemote.maximumSeconds)"

    /// The deadline in seconds; `vault` gives the setting, when one is open.
    ///
    /// - Throws: `ConfigError.badValue` when the variable is set to something else than `expected`.
    static func seconds(environment: [String: String], vault: Vault?) throws -> Int {
        if let text = environment[variable], !text.isEmpty {
            guard let seconds = parse(text) else {
                throw ConfigError.badValue(key: "the environment variable \(variable)", expected: expected)
            }
            return seconds
        }
        let setting = (try? vault?.setting(ConfigKey.syncDeadline)).flatMap { $0 }
        return setting.flatMap(parse) ?? DeadlineRemote.defaultSeconds
    }

    /// `text` as seconds, if it is a whole number within the bounds.
    static func parse(_ text: String) -> Int? {
        guard let seconds = Int(text), (1...DeadlineRemote.maximumSeconds).contains(seconds) else { return nil }
        return seconds
    }
}
