import AuthCatCore
import AuthCatEssentials
import Foundation

/// `doctor`'s completion finding: whether shell completion is installed for
/// the user's `$SHELL`, and current. Here, not among the library's checks,
/// because the scripts and where shells look for them are the command line's.
enum CompletionCheck {
    /// Where the completion script for `shell` is looked for, first the
    /// user's own place (where the README installs it), then the system's.
    static func completionPaths(shell: String, environment: [String: String]) -> [String] {
        guard let home = environment["HOME"], !home.isEmpty else { return [] }
        let data = VaultLocation.xdgBaseDirectory(environment["XDG_DATA_HOME"]) ?? home + "/.local/share"
        let config = VaultLocation.xdgBaseDirectory(environment["XDG_CONFIG_HOME"]) ?? home + "/.config"
        switch shell {
        case "bash":
            return [
                data + "/bash-completion/completions/authcat", home + "/.bash_completion.d/authcat",
                "/usr/local/share/bash-completion/completions/authcat",
                "/usr/share/bash-completion/completions/authcat",
                "/etc/bash_completion.d/authcat",
            ]
        case "zsh":
            let fpath = (environment["FPATH"] ?? "").split(separator: ":").map { "\($0)/_authcat" }
            // ~/.local/share/zsh/site-functions is where scripts/install puts it for ~/.local.
            return [home + "/.zfunc/_authcat", home + "/.local/share/zsh/site-functions/_authcat"] + fpath
                + [
                    "/usr/local/share/zsh/site-functions/_authcat", "/usr/share/zsh/vendor-completions/_authcat",
                    "/usr/share/zsh/site-functions/_authcat",
                ]
        case "fish":
            return [
                config + "/fish/completions/authcat.fish", data + "/fish/vendor_completions.d/authcat.fish",
                "/usr/local/share/fish/vendor_completions.d/authcat.fish",
                "/usr/share/fish/vendor_completions.d/authcat.fish",
            ]
        default:
            return []
        }
    }

    /// How to install the completion for `shell`, as the README says.
    static func completionInstallLine(shell: String) -> String? {
        switch shell {
        case "bash":
            "mkdir -p ~/.local/share/bash-completion/completions && "
                + "authcat --generate-completion-script bash > ~/.local/share/bash-completion/completions/authcat"
        case "zsh":
            "mkdir -p ~/.zfunc && authcat --generate-completion-script zsh > ~/.zfunc/_authcat "
                + "(and fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc)"
        case "fish":
            "mkdir -p ~/.config/fish/completions && "
                + "authcat --generate-completion-script fish > ~/.config/fish/completions/authcat.fish"
        default: nil
        }
    }

    /// Whether shell completion is installed for the user's `$SHELL`; a
    /// script that differs from `current` (this version's) is out of date.
    static func completion(environment: [String: String], current: (String) -> String?) -> DoctorFinding {
        let check = "completion"
        let shell = nonEmpty(environment["SHELL"]).map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
        guard let install = completionInstallLine(shell: shell) else {
            let which = shell.isEmpty ? "$SHELL is not set" : "authcat has no completion for \(shell)"
            return DoctorFinding(check, .ok, "not checked: \(which) (bash, zsh and fish have one)")
        }
        guard
            let path = completionPaths(shell: shell, environment: environment)
                .first(where: { FileManager.default.isReadableFile(atPath: $0) })
        else {
            return DoctorFinding(check, .warning, "no \(shell) completion for authcat is installed", advice: install)
        }
        if let expected = current(shell), let installed = try? String(contentsOfFile: path, encoding: .utf8),
            installed != expected && installed != expected + "\n"
        {
            return DoctorFinding(check, .warning, "\(path) is from another version of authcat", advice: install)
        }
        return DoctorFinding(check, .ok, "\(shell) completion is installed at \(path)")
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
