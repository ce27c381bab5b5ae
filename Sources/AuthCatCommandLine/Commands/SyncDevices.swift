import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat sync devices …`: the devices of the remote vault.
    struct SyncDevices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices",
            abstract: "List the devices of the remote vault, or rename this one.",
            discussion: """
                Every device that joined the remote vault, as this device's syncs found \
                them (nothing is asked of the remote): its name, its short id (the first 8 \
                digits of its id, always beside its name), when it joined, when this device \
                first and last read one of its objects, whether it is this device, and \
                whether a key rotation revoked it. A device's name goes out with its join; one \
                whose join was cut short shows as (no name yet) once a sync here read its \
                certificate. \
                A name is a device's own word: anything in it that would not show is \
                written as its code point (<U+3164>), and a name too like another's is \
                marked.

                A device is named on the command line by its id, by a prefix of its id \
                of at least 4 digits that no other id shares, or by its name. Names are \
                unique on the remote: a device whose name another device already carries, \
                or one too like it to tell apart (case, width, accents, lookalike letters \
                and digits), takes a suffix (vm-2) at its next sync.

                Examples:
                  authcat sync devices
                  authcat sync devices --json
                  authcat sync devices 3d73
                  authcat sync devices rename work-laptop
                """,
            subcommands: [SyncDevicesList.self, SyncDevicesRename.self],
            defaultSubcommand: SyncDevicesList.self)
    }

    /// `authcat sync devices [list] [--json]`.
    struct SyncDevicesList: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the devices of the remote vault (the default).")

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(
            help: ArgumentHelp(
                "Show only this device: its id, a prefix of its id (4 digits or more) or its name.",
                valueName: "device"))
        var device: String?

        @Flag(help: "Print the devices as JSON.")
        var json = false

        func run(in invocation: Invocation) async throws {
            let output = invocation.output
            let directory = try SyncService.open(vaultOptions, in: invocation).devices()
            let shown = try device.map { [try DeviceNaming.resolve($0, in: directory)] } ?? directory.devices
            if json {
                output.print(try JSONOutput.string(shown.map(\.jsonDocument)))
            } else {
                DeviceTable.lines(shown).forEach { output.print($0) }
            }
        }
    }

    /// `authcat sync devices rename NEW-NAME`.
    struct SyncDevicesRename: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Rename this device; the others show the new name after their next sync.",
            discussion: """
                The name goes out with this device's next sync (a change starts one in the \
                background when sync is on), and each other device shows it once it syncs. \
                A name is 1 to \(DeviceName.maximumLength) characters that all show (nothing \
                invisible or blank-looking, no control characters, single spaces between \
                words, none at either end), and neither one another device of the remote \
                vault already has nor one too like it to tell apart.

                Example:
                  authcat sync devices rename work-laptop
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(help: ArgumentHelp("The new name of this device.", valueName: "new-name"))
        var newName: String

        func validate() throws {
            _ = try DeviceNaming.validated(newName)
        }

        func run(in invocation: Invocation) async throws {
            let service = try SyncService.open(vaultOptions, in: invocation)
            let output = invocation.output
            let rename = try await DeviceNaming.asUsage {
                try await service.renameDevice(to: newName, whenBusy: { SyncService.sayWaiting(output) })
            }
            output.print(
                TerminalText.sanitized(
                    "this device is now named '\(rename.to)' (was '\(rename.from)'); "
                        + "the other devices show it after their next sync"))
            // The new name is a change for sync to carry, like an edited account.
            VaultChangeHook.vaultDidChange(service.vault, in: invocation)
        }
    }
}
