import Foundation
import ArgumentParser
import AuthCatCore
import AuthCatSync

extension AuthCat {
    /// `authcat sync watch`: keep syncing until stopped.
    struct SyncWatch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Keep syncing until stopped (Ctrl-C, SIGTERM, or sync turned off).",
            discussion: """
                Exports a local change within about a second, imports other devices' changes \
                every --interval seconds, and stops as soon as sync is turned off (by \
                'authcat sync disable' in another process, or by another device). When \
                compaction is due (see 'authcat sync compact') and no local change was made for \
                --interval seconds, the next check compacts instead of only syncing. It says \
                when it starts watching, and each sync that changed something prints one line; failures are warnings on standard \
                error and the next attempt follows the interval. A vault mismatch stops it \
                with exit status 1.
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Option(help: ArgumentHelp("Seconds between checks for other devices' changes.", valueName: "seconds"))
        var interval: Double = 30

        private static func seconds(_ interval: Double) -> String {
            let whole = interval.rounded() == interval ? "\(Int(interval))" : "\(interval)"
            return interval == 1 ? "second" : "\(whole) seconds"
        }

        func validate() throws {
            guard interval >= 1, interval <= 86_400 else { throw ValidationError("--interval must be between 1 and 86400 seconds") }
        }

        func run() async throws {
            let session = try SyncSession.open(vaultOptions)
            if let lost = SyncState.lostStateError(in: session.location) { throw lost }
            guard SyncState.isEnabled(in: session.location) else { throw SyncCommandError.syncOff }
            let watchLock = try SyncLockFile.watch(in: session.location)
            watchLock.lockShared()
            defer { watchLock.unlock() }
            let stop = SyncStopSignal.install()
            let remote = try session.localState().remoteLocation ?? "the remote"
            Output.print("\(Timestamp.text(Invocation.current.now)) watching \(remote): local changes go out within a second, "
                  + "other devices' changes are checked every \(Self.seconds(interval)); Ctrl-C stops")
            // Piped into a log, standard output is block-buffered; say at once that it started.
            Output.flushStandardOutput()
            try await SyncWatchLoop(session: session, interval: interval, stop: stop).run()
        }
    }
}
