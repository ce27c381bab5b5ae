import ArgumentParser
import AuthCatCore
import Foundation

/// Options every command shares: where the vault is.
struct VaultOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The vault folder (default: $AUTHCAT_HOME, else $XDG_DATA_HOME/authcat, else ~/.local/share/authcat).",
            valueName: "path"),
        completion: .directory)
    var home: String?

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The vault folder, from `--home` or the environment.
    func location() throws -> VaultLocation {
        try VaultLocation.resolve(override: home, environment: environment)
    }

    /// The existing vault, or nil when none was ever created here (for
    /// commands that simply show nothing then).
    func openExistingVault() throws -> Vault? {
        let location = try checkedLocation()
        guard location.exists else { return nil }
        return try open(location)
    }

    /// The existing vault; throws `VaultError.noVault` when there is none.
    func openVault() throws -> Vault {
        try open(try checkedLocation())
    }

    /// The vault, created on first use with this host's name for the device.
    func openOrCreateVault() throws -> Vault {
        try Vault.openOrCreate(at: try checkedLocation(), deviceName: HostName.current(),
                               passphrase: PassphraseSource.current(environment: environment))
    }

    private func open(_ location: VaultLocation) throws -> Vault {
        try Vault.open(at: location, passphrase: PassphraseSource.current(environment: environment))
    }

    /// Refuses folders others can write to and warns about ones they can read.
    private func checkedLocation() throws -> VaultLocation {
        let location = try location()
        for warning in try location.checkPermissions() {
            Output.warning(warning)
        }
        return location
    }
}
