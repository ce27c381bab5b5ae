import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat sync enable --remote URL`: create, join or resume a remote vault, then sync once.
    struct SyncEnable: InvokedCommand {
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

                The device takes the host's name on the remote, or the one given with \
                --device-name (1 to \(DeviceName.maximumLength) characters that all show: \
                nothing invisible or blank-looking, no control characters, single spaces \
                between words); when another device of the remote vault already has it, or \
                a name too like it to tell apart, the first sync adds a suffix (vm-2) and \
                says so. 'authcat sync devices' lists \
                the devices, 'authcat sync devices rename' renames this one.

                Examples:
                  authcat sync enable --remote file:///home/me/Sync/authcat
                  authcat sync enable --remote s3://bucket/authcat --device-name work-laptop
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

        @Option(
            help: ArgumentHelp(
                "This device's name on the remote (default: the host name; a suffix such as -2 when another device has it).",
                valueName: "name"))
        var deviceName: String?

        /// A location authcat cannot read (an unknown scheme, a password in
        /// the URL) is a value `--remote` does not take, and a bad device name
        /// is refused: usage errors, found before anything is opened.
        func validate() throws {
            if let deviceName { _ = try DeviceNaming.validated(deviceName) }
            do {
                _ = try RemoteLocation(parsing: remote)
            } catch let error as UserFacingError {
                throw ValidationError(error.description)
            }
        }

        func run(in invocation: Invocation) async throws {
            let output = invocation.output
            let location = try RemoteLocation(parsing: remote)
            // Asked first, so that a refusal leaves everything as it was.
            try confirmCleartext(location, in: invocation)
            let environment = invocation.environment
            // A vault made only for this enable goes again if it fails: "nothing was changed" stays true.
            let created = CreatedVault.noting(try vaultOptions.location(in: invocation))
            let vault = try vaultOptions.openOrCreateVault(in: invocation)
            let service = try SyncService.commandLine(vault, in: invocation)
            var keyFile: SyncRecoveryKeyFile?
            var asked = false
            let retries = SyncSecretInput.retries(useRecoveryKey: useRecoveryKey, file: recoveryKeyFile, in: invocation)
            let outcome = try await created.undoingOnFailure(vault) {
                try await SyncProgressLine.showing(on: invocation.standardError) { progress in
                    try await DeviceNaming.asUsage {
                        try await service.enable(
                            remoteURL: remote,
                            makeRemote: {
                                try await makeRemote(
                                    location: remote, environment: environment,
                                    homeDirectory: SyncService.home(environment),
                                    password: WebDAVPasswordInput.source(in: invocation))
                            },
                            // Asked again under the run lock: another enable may have finished while this one asked or waited.
                            isOnAlready: { try isAlreadyOn($0, with: location, output: output) },
                            ask: { plan, display in
                                // Asked again after a wrong secret: the plan was confirmed already.
                                let secret = try self.secret(
                                    for: plan, remote: display, confirming: !asked, in: invocation)
                                asked = true
                                keyFile =
                                    try plan == .create
                                    ? recoveryKeyFile.map {
                                        try SyncRecoveryKeyFile.create($0, standard: invocation.standardDescriptors)
                                    }
                                    : nil
                                return secret
                            },
                            askAgain: retries.again(after:), kdf: invocation.passphraseKDF,
                            announce: { result, display in
                                // The recovery key file is written only once the remote vault exists.
                                try announce(result, remote: display, keyFile: keyFile, output: output)
                                // The recovery key is out before the first sync, which can be slow or stopped.
                                output.flushStandardOutput()
                            },
                            progress: progress, deviceName: deviceName, hostName: HostName.current())
                    }
                }
            }
            guard case .enabled(_, let firstSync?) = outcome else { return }
            do {
                SyncReportOutput.lines(try firstSync.get()).forEach { output.print($0) }
            } catch {
                throw SyncCommandError.firstSyncFailed(error)
            }
        }

        /// Asks before syncing over plain http to another machine; without a terminal, `--allow-http` must say so.
        private func confirmCleartext(_ location: RemoteLocation, in invocation: Invocation) throws {
            guard location.isCleartextOverNetwork, !allowHttp, case .s3(let configuration) = location else { return }
            guard invocation.terminal.standardInputIsTerminal else {
                throw SyncCommandError.cleartextNeedsOptIn(endpoint: configuration.endpoint)
            }
            let question =
                "\(configuration.endpoint) is plain http to another machine: the synced objects and their list "
                + "travel unencrypted and can be altered on the way. Use it anyway? [y/N] "
            guard try TypedAnswer.confirm(question, hint: "add --allow-http", in: invocation) else {
                throw SyncCommandError.cleartextDeclined
            }
        }

        /// Whether sync is on already with `location` (said on standard output).
        /// - Throws: `SyncCommandError.alreadyOn` when it is on with another remote.
        private func isAlreadyOn(
            _ state: SyncLocalState, with location: RemoteLocation, output: Output
        ) throws -> Bool {
            guard state.isEnabled else { return false }
            guard state.remoteLocation.map({ (try? RemoteLocation(parsing: $0)) == location }) ?? false else {
                throw SyncCommandError.alreadyOn(remote: state.remoteLocation ?? location.displayLocation)
            }
            output.print("sync is already on with \(location.displayLocation)")
            return true
        }

        /// The secret for `plan`, after the confirmations it needs when `confirming`; nil to resume.
        private func secret(
            for plan: SyncSetupPlan, remote: String, confirming: Bool, in invocation: Invocation
        ) throws -> SyncSecret? {
            if confirming, plan == .joinDifferentVault {
                try confirmDifferentVault(remote, in: invocation)
            }
            if confirming, plan == .create { try confirmNewRemoteVault(remote, in: invocation) }
            switch plan {
            case .create:
                guard !useRecoveryKey else { throw SyncCommandError.recoveryKeyNeedsExistingVault(remote: remote) }
                return .passphrase(try SyncSecretInput.newPassphrase(in: invocation))
            case .join, .joinDifferentVault:
                return try SyncSecretInput.current(
                    useRecoveryKey: useRecoveryKey, file: recoveryKeyFile, in: invocation)
            case .resume:
                return nil
            }
        }

        /// The remote this device synced with now holds another vault: that may be
        /// someone else's, put there to receive this vault's accounts. Asked on a
        /// terminal; scripts say so with --join-different-vault.
        private func confirmDifferentVault(_ remote: String, in invocation: Invocation) throws {
            guard !joinDifferentVault else { return }
            guard invocation.terminal.standardInputIsTerminal else {
                throw SyncCommandError.differentVaultNeedsConfirmation(remote: remote)
            }
            let question =
                "\(remote) now holds a different vault than the one this device synced with there. "
                + "Join it, and send this vault's accounts to it? [y/N] "
            guard try TypedAnswer.confirm(question, hint: "add --join-different-vault", in: invocation) else {
                throw SyncCommandError.differentVaultNotJoined
            }
        }

        /// No vault was found where the user pointed: a typo in the location
        /// (`…/remtoe`) would otherwise make a second remote vault, with a new
        /// recovery key, beside the one the user meant. Asked on a terminal;
        /// scripts, which name their location on purpose, are not asked.
        private func confirmNewRemoteVault(_ remote: String, in invocation: Invocation) throws {
            guard invocation.terminal.standardInputIsTerminal else { return }
            let question =
                "no authcat vault was found at \(remote). Create a new remote vault there, "
                + "with a new sync passphrase and recovery key? [y/N] "
            guard try TypedAnswer.confirm(question, hint: "run it again and answer y", in: invocation) else {
                throw SyncCommandError.newVaultNotCreated
            }
        }

        private func announce(
            _ result: SyncEnableResult, remote: String, keyFile: SyncRecoveryKeyFile?, output: Output
        ) throws {
            switch result.outcome {
            case .created: output.print("sync is on: created a new remote vault at \(remote)")
            case .joined: output.print("sync is on: joined the remote vault at \(remote)")
            case .resumed: output.print("sync is on again with \(remote)")
            }
            output.print(TerminalText.sanitized("this device is named '\(result.deviceName)' (\(result.deviceID))"))
            guard let recoveryKey = result.recoveryKey else { return }
            if let keyFile {
                try keyFile.write(recoveryKey)
                output.print("the recovery key was written to \(keyFile.path); keep it safe, apart from this computer")
            } else {
                output.print("recovery key (shown only now; write it down and keep it apart from this computer):")
                output.print("  \(recoveryKey)")
            }
        }
    }
}
