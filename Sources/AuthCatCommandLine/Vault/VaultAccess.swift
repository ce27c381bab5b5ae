import AuthCatCore
import AuthCatEssentials
import Foundation

/// Finding and opening the vault: `--home` or the environment, the
/// permission check, and the passphrase source. A plain value apart from
/// ArgumentParser; `VaultOptions` wraps it for the commands.
struct VaultAccess {
    /// The `--home` option, if given.
    var home: String?
    /// The environment, the terminal a passphrase is typed on, and where
    /// warnings about the folder's permissions go.
    var invocation: Invocation

    /// Where a passphrase is asked when there is no terminal (`authcat pick`
    /// from a key binding); nil: only the terminal or the passphrase file.
    var desktopPassphrase: DesktopPassphrase?

    init(home: String?, in invocation: Invocation, desktopPassphrase: DesktopPassphrase? = nil) {
        self.home = home
        self.invocation = invocation
        self.desktopPassphrase = desktopPassphrase
    }

    /// The vault folder, from `--home` or the environment.
    func location() throws -> VaultLocation {
        try VaultLocation.resolve(override: home, environment: invocation.environment)
    }

    /// The existing vault, or nil when none was ever created here.
    func openExistingVault() throws -> Vault? {
        let location = try checkedLocation()
        guard location.exists else { return nil }
        return try open(location)
    }

    /// The existing vault; throws `VaultStoreError.noVault` when there is none.
    func openVault() throws -> Vault {
        try open(try checkedLocation())
    }

    /// The vault, created on first use with this host's name for the device.
    func openOrCreateVault() throws -> Vault {
        try Vault.openOrCreate(
            at: try checkedLocation(), deviceName: HostName.current(),
            passphrase: PassphraseSource.current(in: invocation))
    }

    private func open(_ location: VaultLocation) throws -> Vault {
        try Vault.open(at: location, passphrase: PassphraseSource.current(in: invocation, desktop: desktopPassphrase))
    }

    /// Refuses folders others can write to and warns about ones they can read.
    private func checkedLocation() throws -> VaultLocation {
        let location = try location()
        for warning in try location.checkPermissions() {
            invocation.output.warning(warning)
        }
        return location
    }
}

/// This machine's name, for naming the device in history.
enum HostName {
    /// `gethostname`, not `ProcessInfo.hostName`, which may wait on DNS.
    static func current() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this device" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "this device" : name
    }
}
