import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

extension AuthCat {
    /// `authcat unlock [--for DURATION]`, `authcat unlock --status`.
    struct Unlock: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock",
            abstract: "Ask for the passphrase once and keep the vault unlocked for a while.",
            discussion: """
                Keeps the vault key in the Linux kernel keyring of your user for the given \
                time (default 15 minutes, at most 30 days). Until then, or until \
                'authcat lock', every authcat command of yours uses the key without asking: \
                code (as fast as on a vault without a passphrase), background sync pushes, \
                sync watch, backups and cron jobs. Changing or removing the passphrase \
                locks the vault. Only a vault with a passphrase can be unlocked.

                The key is readable by your own programs and by root while it is kept; \
                see docs/SECURITY.md.

                With --status, says whether the vault is unlocked and for how long. Exit \
                status: 0 when unlocked (or when the vault has no passphrase), 2 when locked.

                Examples:
                  authcat unlock
                  authcat unlock --for 8h
                  authcat unlock --status --json
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Option(
            name: .customLong("for"),
            help: ArgumentHelp(
                "How long: a number with s, m, h or d (90s, 15m, 8h, 7d), up to 30d.", valueName: "duration"),
            transform: SessionLength.init(parsing:))
        var length = SessionLength(seconds: 900)

        @Flag(help: "Only say whether the vault is unlocked, and until when.")
        var status = false

        @Flag(help: "With --status: print JSON.")
        var json = false

        func validate() throws {
            if json, !status { throw ValidationError("--json goes with --status") }
        }

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            if status { return try printStatus(vault, in: invocation) }
            guard try vault.hasPassphrase() else {
                invocation.output.print("the vault has no passphrase, so it needs no unlocking")
                return
            }
            let until = try vault.keepUnlocked(forSeconds: length.seconds)
            invocation.output.print(
                "unlocked for \(length.description), until \(Timestamp.text(until)); 'authcat lock' locks it now")
        }

        private func printStatus(_ vault: Vault, in invocation: Invocation) throws {
            let state = try UnlockState(vault: vault, now: invocation.now)
            if json {
                invocation.output.print(try JSONOutput.string(state))
            } else {
                invocation.output.print(state.sentence)
            }
            if state.state == .locked { throw ExitCode(2) }
        }
    }
}

/// What `authcat unlock --status` says.
struct UnlockState: Encodable {
    enum State: String, Encodable {
        case unlocked, locked
        case noPassphrase = "no passphrase"
    }

    var state: State
    /// When the keyring forgets the key; nil unless unlocked.
    @NullWhenAbsent var expiresAt: Date?
    /// Whole seconds left; nil unless unlocked.
    @NullWhenAbsent var secondsLeft: Int?

    init(vault: Vault, now: Date) throws {
        guard try vault.hasPassphrase() else {
            state = .noPassphrase
            return
        }
        guard let until = vault.unlockedUntil() else {
            state = .locked
            return
        }
        state = .unlocked
        expiresAt = until
        secondsLeft = max(0, Int(until.timeIntervalSince(now).rounded()))
    }

    var sentence: String {
        switch state {
        case .noPassphrase: "the vault has no passphrase; authcat never asks for one"
        case .locked: "locked; 'authcat unlock' unlocks it"
        case .unlocked:
            "unlocked until \(expiresAt.map(Timestamp.text) ?? "?") (\(SessionLength(seconds: max(1, secondsLeft ?? 0)).description) left)"
        }
    }

    enum CodingKeys: String, CodingKey {
        case state
        case expiresAt = "expires_at"
        case secondsLeft = "seconds_left"
    }
}
