import Foundation

/// The rule for a file that holds a secret (a passphrase or password file,
/// `~/.netrc`): readable by its owner alone, as ssh asks of a private key.
/// `doctor` checks it (`secret_file`), and the command line warns when it
/// reads a file that breaks it.
public enum SecretFileMode {
    /// What is wrong with the mode of the file `info` describes ("has mode
    /// 644: others can read the secret in it"), or nil when group and others
    /// have no access. Only a regular file is judged: a pipe or a terminal
    /// (`-`, `/dev/stdin`) holds nothing once read.
    public static func exposure(_ info: stat) -> String? {
        let mode = info.st_mode & 0o777
        guard info.st_mode & S_IFMT == S_IFREG, mode & 0o077 != 0 else { return nil }
        return "has mode \(String(mode, radix: 8)): others can read the secret in it"
    }

    /// The same, for the file at `path`; nil when it cannot be looked at.
    public static func exposure(atPath path: String) -> String? {
        var info = stat()
        return stat(path, &info) == 0 ? exposure(info) : nil
    }

    /// The fix for `path`.
    public static func fix(_ path: String) -> String { "run: chmod 600 \(path)" }

    /// The warning for `path`, which `exposure` describes: the file is named, never its contents.
    public static func warning(_ path: String, _ exposure: String) -> String {
        "\(path) \(exposure); \(fix(path))"
    }
}
