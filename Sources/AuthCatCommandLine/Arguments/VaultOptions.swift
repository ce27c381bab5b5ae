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

    /// How these options find and open the vault.
    var access: VaultAccess { VaultAccess(home: home) }

    var environment: [String: String] { Invocation.current.environment }

    /// The vault folder, from `--home` or the environment.
    func location() throws -> VaultLocation {
        try access.location()
    }

    /// The existing vault, or nil when none was ever created here (for
    /// commands that simply show nothing then).
    func openExistingVault() throws -> Vault? {
        try access.openExistingVault()
    }

    /// The existing vault; throws `VaultError.noVault` when there is none.
    func openVault() throws -> Vault {
        try access.openVault()
    }

    /// The vault, created on first use with this host's name for the device.
    func openOrCreateVault() throws -> Vault {
        try access.openOrCreateVault()
    }
}
