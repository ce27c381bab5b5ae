import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

/// Options every command shares: where the vault is.
struct VaultOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat if absolute, else ~/.local/share/authcat).",
            valueName: "path"),
        completion: .directory)
    var home: String?

    /// How these options find and open the vault for `invocation`.
    func access(in invocation: Invocation) -> VaultAccess {
        VaultAccess(home: home, in: invocation)
    }

    /// The vault folder, from `--home` or the environment.
    func location(in invocation: Invocation) throws -> VaultLocation {
        try access(in: invocation).location()
    }

    /// The existing vault, or nil when none was ever created here (for
    /// commands that simply show nothing then).
    func openExistingVault(in invocation: Invocation) throws -> Vault? {
        try access(in: invocation).openExistingVault()
    }

    /// The existing vault; throws `VaultStoreError.noVault` when there is none.
    func openVault(in invocation: Invocation) throws -> Vault {
        try access(in: invocation).openVault()
    }

    /// The vault, created on first use with this host's name for the device.
    func openOrCreateVault(in invocation: Invocation) throws -> Vault {
        try access(in: invocation).openOrCreateVault()
    }
}
