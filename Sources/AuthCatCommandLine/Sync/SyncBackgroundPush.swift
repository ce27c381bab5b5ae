import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// The detached `sync now --background` that follows every change to the vault.
///
/// It prints nothing (its output goes to /dev/null) and records every failure
/// in the monitor, so `authcat sync status` shows it and the next command
/// warns about it. It takes its turn through `SyncCoordinator.runQueuedPush`:
/// at most one push runs and at most one waits.
enum SyncBackgroundPush {
    /// - Parameter keyOnInput: the vault key waits on standard input: the
    ///   change's command unwrapped it with the passphrase, which a detached
    ///   process cannot ask for.
    static func run(_ options: VaultOptions, keyOnInput: Bool) async {
        // Already done by the launcher where posix_spawn can; harmless otherwise.
        setsid()
        guard let location = try? options.location() else { return }
        let key = keyOnInput ? handedKey() : nil
        do {
            try await SyncCoordinator(location: location, clock: Invocation.current.clock).runQueuedPush {
                await push(options, location: location, key: key)
            }
        } catch {
            // A lock file that cannot be used: the push never ran, and only the monitor can say so.
            recordFailure(error, in: location)
            SyncNotice.refresh(in: location, now: Invocation.current.now)
        }
    }

    private static func push(_ options: VaultOptions, location: VaultLocation, key: SecretBytes?) async {
        // The user's next command warns about a failure (see `SyncNotice`); nothing else would tell them.
        defer { SyncNotice.refresh(in: location, now: Invocation.current.now) }
        var engineRan = false
        do {
            let session = try SyncSession.open(options)
            if let key { try session.vault.adopt(key) }
            // A locked vault is no failure: the change waits, pending, for a sync that has the key.
            guard
                session.vault.isKeyAvailableWithoutPrompt
                    || !(options.environment[PassphraseSource.currentVariable] ?? "").isEmpty
            else { return }
            _ = try await session.withEngine { engine in
                engineRan = true
                return try await engine.sync()
            }
        } catch {
            // The engine records its own failures; record those that came before it.
            if !engineRan { recordFailure(error, in: location) }
        }
    }

    /// The key from standard input: exactly one key's bytes, or nothing usable.
    private static func handedKey() -> SecretBytes? {
        guard var bytes = try? StandardInput.read(limit: AEAD.keySize, what: "the vault key") else { return nil }
        defer { Wipe.bytes(&bytes) }
        return bytes.count == AEAD.keySize ? SecretBytes(bytes) : nil
    }

    private static func recordFailure(_ error: Error, in location: VaultLocation) {
        if case SyncCommandError.syncOff? = error as? SyncCommandError { return }
        let log = SyncEventLog(location: location)
        let now = Invocation.current.now
        log.record(SyncEvent(phase: .export, kind: .started, time: now))
        log.record(SyncEvent(phase: .export, kind: .failed, time: now, failure: SyncFailure(error)))
    }
}
