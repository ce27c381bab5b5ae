import ArgumentParser

extension AuthCat {
    /// `authcat sync …`: the opt-in, end-to-end encrypted mirror of the vault.
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Mirror the vault to storage you own, end-to-end encrypted (off until enabled).",
            discussion: """
                Remotes: a folder (file:///path, or a plain absolute path), such as a Syncthing, \
                Dropbox or NAS folder; or S3-compatible storage (s3://bucket/prefix, with \
                ?endpoint=URL&region=R&path_style=true&profile=NAME for MinIO, Ceph, R2 or B2). \
                S3 credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, else from \
                the profile (AWS_PROFILE, else default) in ~/.aws/credentials; never from the URL. \
                A WebDAV folder (davs://USER@HOST/PATH, such as Nextcloud's \
                davs://alice@cloud.example.com/remote.php/dav/files/alice/authcat with an app \
                password; dav:// is plain HTTP, for loopback or with ?allow_http=true): the \
                password comes from AUTHCAT_WEBDAV_PASSWORD_FILE, else ~/.netrc, else the \
                terminal; never from the URL. Any rclone remote (rclone:REMOTE:PATH: Google \
                Drive, OneDrive, Dropbox, SFTP, B2…) through the rclone program and its own \
                configuration.

                When sync is on, every command that changes the vault pushes the change in the \
                background; 'authcat code' never syncs.

                Environment:
                  AUTHCAT_SYNC_PASSPHRASE_FILE      A file whose first line is the sync
                                                    passphrase, for scripts.
                  AUTHCAT_NEW_SYNC_PASSPHRASE_FILE  The same for the new one, for 'sync
                                                    passphrase change'.
                  AUTHCAT_WEBDAV_PASSWORD_FILE      A file whose first line is the WebDAV
                                                    password.
                  AUTHCAT_RCLONE                    The rclone program to run (default: rclone
                                                    on PATH).
                  AUTHCAT_SYNC_DEADLINE             Seconds a whole sync may take (default 600,
                                                    or sync.deadline).
                """,
            subcommands: [
                SyncEnable.self, SyncDisable.self, SyncNow.self, SyncCompact.self, SyncWatch.self,
                SyncStatusCommand.self, SyncDevices.self, SyncPassphrase.self, SyncRotate.self,
            ])
    }
}
