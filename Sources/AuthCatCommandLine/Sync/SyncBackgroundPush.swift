import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// The detached `sync now --background` that follows every change to the vault.
///
/// It prints nothing (its output goes to /dev/null) and records every failure
/// in the monitor, so `authcat sync status` shows it and the next command
/// warns about it. It takes its turn through `SyncService.pushInBackground`:
/// at most one push runs and at most one waits.
enum SyncBackgroundPush {
    /// - Parameter keyOnInput: the vault key waits on standard input: the
    ///   change's command unwrapped it with the passphrase, which a detached
    ///   process cannot ask for.
    static func run(_ options: VaultOptions, keyOnInput: Bool, in invocation: Invocation) async {
        // Already done by the launcher where posix_spawn can; harmless otherwise.
        setsid()
        guard let location = try? options.location(in: invocation) else { return }
        let key = keyOnInput ? handedKey(in: invocation) : nil
        // The vault is opened here for its deadline setting only; the push opens it again when its turn comes.
        let deadline =
            (try? SyncDeadline.seconds(
                environment: invocation.environment, vault: try? options.openVault(in: invocation)))
            ?? DeadlineRemote.defaultSeconds
        await SyncService.pushInBackground(
            in: location, remotes: SyncService.remotes(in: invocation, deadline: deadline),
            clock: invocation.clock
        ) {
            let vault = try options.openVault(in: invocation)
            if let key { try vault.adopt(key) }
            // A locked vault is no failure: the change waits, pending, for a sync that has the key.
            guard
                vault.isKeyAvailableWithoutPrompt
                    || !(invocation.environment[PassphraseSource.currentVariable] ?? "").isEmpty
            else { return nil }
            return vault
        }
    }

    /// The key from standard input: exactly one key's bytes, or nothing usable.
    private static func handedKey(in invocation: Invocation) -> SecretBytes? {
        guard var bytes = try? invocation.readStandardInput(limit: AEAD.keySize, what: "the vault key") else {
            return nil
        }
        defer { Wipe.bytes(&bytes) }
        return bytes.count == AEAD.keySize ? SecretBytes(bytes) : nil
    }
}
