import ArgumentParser

/// The root of the command tree. Each subcommand lives in its own file in
/// `Commands/`; adding one is a file there plus one line in `subcommands`.
struct AuthCat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authcat",
        abstract: "A two-factor authenticator: TOTP and HOTP codes from an encrypted local vault.",
        discussion: """
            authcat keeps the secrets of your two-factor accounts in an encrypted vault \
            and prints their codes. Secrets are read from standard input or typed with \
            echo off; they are never taken from the command line.

            Examples:
              authcat add alice@example.com --issuer GitHub < secret.txt
              authcat code github
              authcat list

            Environment:
              AUTHCAT_HOME
                  The vault folder; --home overrides it. Without either, the
                  vault is in $XDG_DATA_HOME/authcat, else ~/.local/share/authcat.
              AUTHCAT_PASSPHRASE_FILE
                  A file whose first line is the vault passphrase, for scripts.
              AUTHCAT_NEW_PASSPHRASE_FILE
                  The new passphrase, for 'passphrase set' and 'passphrase change'.
              AUTHCAT_SYNC_PASSPHRASE_FILE
                  The sync passphrase, for 'sync enable' and 'sync passphrase change'.
              AUTHCAT_NEW_SYNC_PASSPHRASE_FILE
                  The new sync passphrase, for 'sync passphrase change'.
              AUTHCAT_BACKUP_PASSPHRASE_FILE
                  The passphrase of a backup, for 'backup', 'restore-backup' and
                  'import' of an authcat backup.
              AUTHCAT_IMPORT_PASSPHRASE_FILE
                  The passphrase of an encrypted export from another app, for 'import'
                  and 'follow'.
              AUTHCAT_EXPORT_PASSPHRASE_FILE
                  The password of an encrypted export, for 'export --encrypt'.
              AUTHCAT_AGE_IDENTITY_FILE
                  The age identity that opens a gopass store's .age entries, for 'import'
                  (default: gopass's own, read by age itself).
              AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE
                  Credentials of an s3:// sync remote (see 'authcat sync --help').
              AUTHCAT_WEBDAV_PASSWORD_FILE
                  The password of a dav:// or davs:// sync remote, else ~/.netrc.
              AUTHCAT_RCLONE
                  The rclone program for an rclone: sync remote (default: rclone).
              AUTHCAT_SYNC_DEADLINE
                  Seconds a whole sync may take (default 600, or 'config set
                  sync.deadline').
              XDG_DATA_HOME, XDG_CONFIG_HOME
                  Used only when they hold an absolute path, as the XDG Base
                  Directory specification says.
              NO_COLOR
                  When set and not empty, 'code --watch' uses no colour.

            Exit status: 0 on success; 1 on an error, reported in one line on
            standard error, or when a question such as rm's is answered no
            (nothing was changed); 64 for a usage error: an unknown command or
            option, a missing argument or a value an option does not take.
            'sync status' exits 2 to 8 for a sync problem (see its --help).
            """,
        // The one place the version is written: `--version` prints it, for
        // `authcat` too, which hands that command line to this program.
        version: "0.11.0",
        subcommands: [
            Add.self,
            Code.self,
            Pick.self,
            List.self,
            Show.self,
            Edit.self,
            Remove.self,
            Restore.self,
            History.self,
            Passphrase.self,
            Unlock.self,
            Lock.self,
            Config.self,
            Import.self,
            Follow.self,
            Export.self,
            Backup.self,
            RestoreBackup.self,
            Sync.self,
            Doctor.self,
            ClipboardClear.self,
        ])

    /// Lets `--home` come before the subcommand too (`authcat --home PATH code`).
    @OptionGroup var vaultOptions: VaultOptions
}
