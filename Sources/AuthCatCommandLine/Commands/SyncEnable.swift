import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat sync enable --remote URL`: create, join or resume a remote vault, then sync once.
    struct SyncEnable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enable",
            abstract: "Turn sync on: create a remote vault, or join one another device created.",
            discussion: """
                On an empty remote, authcat creates a remote vault: on a terminal it first \
                asks whether to, saying that no vault was found there (a mistyped location \
                would otherwise make a second vault); then it asks for a new sync \
                passphrase twice (or reads it from AUTHCAT_SYNC_PASSPHRASE_FILE) and shows a \
                recovery key once; keep it safe, or write it to a new 0600 file with \
                --recovery-key-file. On a remote that holds a vault, it asks for that vault's \
                sync passphrase, or with --use-recovery-key for its recovery key (from \
                --recovery-key-file or typed). Turning sync on again later asks nothing and \
                exports what changed meanwhile. If the remote this device synced with \
                before now holds a different vault, it asks before joining that one \
                (scripts add --join-different-vault). Then it syncs once.
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Option(
            help: ArgumentHelp(
                "Where to sync: file:///path, s3://bucket/prefix, davs://user@host/path or rclone:remote:path.",
                valueName: "url"))
        var remote: String

        @Option(
            help: ArgumentHelp(
                "A new file to write the recovery key to (mode 0600) when creating; the file to read it from with --use-recovery-key.",
                valueName: "path"), completion: .file())
        var recoveryKeyFile: String?

        @Flag(help: "Join with the recovery key instead of the sync passphrase.")
        var useRecoveryKey = false

        @Flag(
            help: ArgumentHelp(
                "Use an http:// S3 endpoint on another machine without asking.",
                discussion:
                    "Credentials are signed, never sent, but the objects and the listing travel unencrypted and can be "
                    + "altered on the way. A loopback endpoint (127.0.0.0/8, ::1, localhost) needs no confirmation."))
        var allowHttp = false

        @Flag(help: "Join the vault the remote holds now, though this device synced with a different one there.")
        var joinDifferentVault = false

        func run() async throws {
            let location = try RemoteLocation(parsing: remote)
            // Asked first, so that a refusal leaves everything as it was.
            try confirmCleartext(location)
            let session = try SyncSession.openOrCreate(vaultOptions)
            if try isAlreadyOn(session, with: location) { return }
            // Asked again under the run lock: another enable may have finished while this one asked or waited.
            try await SyncEnableFlow(
                session: session, url: remote, recoveryKeyFile: recoveryKeyFile,
                useRecoveryKey: useRecoveryKey, joinDifferentVault: joinDifferentVault
            ).run { try isAlreadyOn(session, with: location) }
        }

        /// Asks before syncing over plain http to another machine; without a terminal, `--allow-http` must say so.
        private func confirmCleartext(_ location: RemoteLocation) throws {
            guard location.isCleartextOverNetwork, !allowHttp, case .s3(let configuration) = location else { return }
            guard Terminal.standardInputIsTerminal else {
                throw SyncCommandError.cleartextNeedsOptIn(endpoint: configuration.endpoint)
            }
            let question =
                "\(configuration.endpoint) is plain http to another machine: the synced objects and their list "
                + "travel unencrypted and can be altered on the way. Use it anyway? [y/N] "
            guard try Terminal.confirm(question, hint: "add --allow-http") else {
                throw SyncCommandError.cleartextDeclined
            }
        }

        /// Whether sync is on already with `location` (said on standard output).
        /// - Throws: `SyncCommandError.alreadyOn` when it is on with another remote.
        private func isAlreadyOn(_ session: SyncSession, with location: RemoteLocation) throws -> Bool {
            let state = try session.localState()
            guard state.isEnabled else { return false }
            guard state.remoteLocation.map({ (try? RemoteLocation(parsing: $0)) == location }) ?? false else {
                throw SyncCommandError.alreadyOn(remote: state.remoteLocation ?? location.displayLocation)
            }
            Output.print("sync is already on with \(location.displayLocation)")
            return true
        }
    }
}
